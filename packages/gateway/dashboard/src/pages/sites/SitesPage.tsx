import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { SiteJson } from '../../../../src/http/api-types/index.js';
import { clearSiteAuth, createSite, deleteSite, listSites, setSiteAuth } from '../../api/sites';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/PageHeader';
import { FormField } from '../cron/FormField';
import { fieldErrors } from '../cron/field-errors';
import { formatTime } from '../sessions/format';
import './sites.css';

type Action = { kind: 'create' } | { kind: 'delete'; site: SiteJson } | { kind: 'auth'; site: SiteJson } | undefined;

/** Static sites the agents publish, each on its own origin: list, open, create, delete, basic-auth logins. */
export function SitesPage() {
  const queryClient = useQueryClient();
  const [action, setAction] = useState<Action>();
  const [name, setName] = useState('');
  const [spa, setSpa] = useState(false);
  const [keepFiles, setKeepFiles] = useState(false);
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const sites = useQuery({ queryKey: ['sites'], queryFn: ({ signal }) => listSites(signal) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['sites'] });
  const close = () => setAction(undefined);

  const create = useMutation({
    mutationFn: () => createSite(name.trim(), spa),
    onSuccess: async () => {
      close();
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (site: SiteJson) => deleteSite(site.name, keepFiles),
    onSuccess: async () => {
      close();
      await refresh();
    },
  });
  const auth = useMutation({
    mutationFn: async ({ site, clear }: { site: SiteJson; clear: boolean }): Promise<void> => {
      if (clear) await clearSiteAuth(site.name);
      else await setSiteAuth(site.name, user.trim(), password);
    },
    onSuccess: async () => {
      close();
      setPassword('');
      await refresh();
    },
  });
  const open = (next: Action) => {
    create.reset();
    remove.reset();
    auth.reset();
    setName('');
    setSpa(false);
    setKeepFiles(false);
    setUser(next?.kind === 'auth' ? (next.site.auth?.user ?? '') : '');
    setPassword('');
    setAction(next);
  };
  const submitCreate = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const submitAuth = (event: FormEvent) => {
    event.preventDefault();
    if (action?.kind === 'auth') auth.mutate({ site: action.site, clear: false });
  };
  const createErrors = fieldErrors(create.error);
  const authErrors = fieldErrors(auth.error);
  const list = sites.data?.sites ?? [];
  return (
    <>
      <PageHeader title="Sites">
        <button type="button" className="btn btn-primary" onClick={() => open({ kind: 'create' })}>
          New site
        </button>
      </PageHeader>
      <p className="muted">
        Each site is a folder the agents write into, served on its own origin so its pages never share this dashboard's
        storage.
      </p>
      <ErrorNotice error={sites.error} label="Could not list the sites" />
      {sites.isPending ? <p role="status">Loading the sites…</p> : null}
      {sites.data !== undefined && list.length === 0 ? (
        <div className="card">
          <p>No sites yet. Create one, then ask an agent to write its pages into the site's folder.</p>
        </div>
      ) : null}
      {list.length === 0 ? null : (
        <table className="table">
          <caption className="visually-hidden">Sites</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Address</th>
              <th scope="col">Folder</th>
              <th scope="col">Login</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((site) => (
              <tr key={site.name}>
                <th scope="row">
                  {site.name}
                  {site.spa ? <span className="badge site-spa">single-page app</span> : null}
                </th>
                <td>
                  {site.url === undefined ? (
                    <span className="muted">{site.host} (the sites listener is off)</span>
                  ) : (
                    <a href={site.url} target="_blank" rel="noopener noreferrer">
                      {site.url}
                      <span className="visually-hidden"> (opens {site.name} in a new tab)</span>
                    </a>
                  )}
                </td>
                <td>
                  <code>{site.folder}</code>
                </td>
                <td>
                  {site.auth === null ? (
                    <span className="badge">open</span>
                  ) : (
                    <span className="badge badge-success">login: {site.auth.user}</span>
                  )}
                </td>
                <td>{formatTime(site.createdAt)}</td>
                <td>
                  <div className="row site-actions">
                    <button
                      type="button"
                      className="btn"
                      aria-label={`Login of ${site.name}`}
                      onClick={() => open({ kind: 'auth', site })}
                    >
                      Login
                    </button>
                    <button
                      type="button"
                      className="btn btn-danger"
                      aria-label={`Delete ${site.name}`}
                      onClick={() => open({ kind: 'delete', site })}
                    >
                      Delete
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Dialog open={action?.kind === 'create'} title="New site" onClose={close}>
        <form className="stack" onSubmit={submitCreate} noValidate>
          <ErrorNotice error={create.error} label="Could not create the site" />
          <FormField
            label="Site name"
            hint="Lowercase letters, digits and “-”: it becomes the host name."
            error={createErrors.name}
          >
            <input value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" required />
          </FormField>
          <label className="row site-checkbox">
            <input type="checkbox" checked={spa} onChange={(event) => setSpa(event.target.checked)} />
            Single-page app (unknown paths answer with index.html)
          </label>
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={create.isPending}>
              Create site
            </button>
            <button type="button" className="btn" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>
      <Dialog open={action?.kind === 'delete'} title="Delete the site?" onClose={close}>
        {action?.kind !== 'delete' ? null : (
          <div className="stack">
            <p>
              Delete <strong>{action.site.name}</strong>? Its address stops answering at once.
            </p>
            <label className="row site-checkbox">
              <input type="checkbox" checked={keepFiles} onChange={(event) => setKeepFiles(event.target.checked)} />
              Keep its folder ({action.site.folder}) on disk
            </label>
            <ErrorNotice error={remove.error} />
            <div className="row">
              <button
                type="button"
                className="btn btn-danger"
                disabled={remove.isPending}
                onClick={() => remove.mutate(action.site)}
              >
                Delete site
              </button>
              <button type="button" className="btn" onClick={close}>
                Cancel
              </button>
            </div>
          </div>
        )}
      </Dialog>
      <Dialog
        open={action?.kind === 'auth'}
        title={action?.kind === 'auth' ? `Login of ${action.site.name}` : 'Login'}
        onClose={close}
      >
        {action?.kind !== 'auth' ? null : (
          <form className="stack" onSubmit={submitAuth} noValidate>
            <p className="muted">
              {action.site.auth === null
                ? 'The site is open to anyone who can reach it. Set a user and password to ask for a login.'
                : `Visitors log in as ${action.site.auth.user}. Set a new password, or remove the login.`}
            </p>
            <ErrorNotice error={auth.error} label="Could not change the login" />
            <FormField label="User" error={authErrors.user}>
              <input value={user} onChange={(event) => setUser(event.target.value)} autoComplete="off" />
            </FormField>
            <FormField label="Password" hint="Stored hashed; it is not shown again." error={authErrors.password}>
              <input
                type="password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                autoComplete="new-password"
              />
            </FormField>
            <div className="row">
              <button type="submit" className="btn btn-primary" disabled={auth.isPending}>
                Set login
              </button>
              {action.site.auth === null ? null : (
                <button
                  type="button"
                  className="btn btn-danger"
                  disabled={auth.isPending}
                  onClick={() => auth.mutate({ site: action.site, clear: true })}
                >
                  Remove login
                </button>
              )}
              <button type="button" className="btn" onClick={close}>
                Cancel
              </button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
