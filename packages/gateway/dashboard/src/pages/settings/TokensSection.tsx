import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { CreatedTokenJson, TokenJson } from '../../../../src/http/api-types/index.js';
import { createToken, listTokens, revokeToken } from '../../api/settings';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FormField } from '../cron/FormField';
import { fieldErrors } from '../cron/field-errors';
import { formatTime } from '../sessions/format';

/** The gateway's bearer tokens: names and dates listed, a new one shown once, revoke with a confirmation. */
export function TokensSection() {
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: ['tokens'], queryFn: ({ signal }) => listTokens(signal) });
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedTokenJson>();
  const [copied, setCopied] = useState(false);
  const [revoking, setRevoking] = useState<TokenJson>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['tokens'] });
  const create = useMutation({
    mutationFn: () => createToken(name.trim()),
    onSuccess: async (value) => {
      setName('');
      setCopied(false);
      setCreated(value);
      await refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (token: TokenJson) => revokeToken(token.name),
    onSuccess: async () => {
      setRevoking(undefined);
      await refresh();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const live = (tokens.data?.tokens ?? []).filter((token) => token.revokedAt === undefined);
  const revoked = (tokens.data?.tokens ?? []).filter((token) => token.revokedAt !== undefined);
  return (
    <section className="card stack" aria-labelledby="settings-tokens">
      <h2 id="settings-tokens">Gateway tokens</h2>
      <p className="muted">
        Bearer tokens for the API and this dashboard. They are stored hashed: a token is shown once, when made.
      </p>
      <ErrorNotice error={tokens.error} label="Could not list the tokens" />
      <form className="row settings-token-form" onSubmit={submit} noValidate>
        <FormField label="New token name" error={fieldErrors(create.error).name}>
          <input value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" />
        </FormField>
        <button type="submit" className="btn btn-primary" disabled={create.isPending || name.trim() === ''}>
          Create token
        </button>
      </form>
      {fieldErrors(create.error).name === undefined ? <ErrorNotice error={create.error} label="No token made" /> : null}
      {tokens.data !== undefined && live.length === 0 ? <p className="muted">No live tokens.</p> : null}
      {live.length + revoked.length === 0 ? null : (
        <table className="table">
          <caption className="visually-hidden">Gateway tokens</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {[...live, ...revoked].map((token) => (
              <tr key={`${token.name}-${token.createdAt}`}>
                <th scope="row">{token.name}</th>
                <td>{formatTime(token.createdAt)}</td>
                <td>{token.lastUsedAt === undefined ? 'never' : formatTime(token.lastUsedAt)}</td>
                <td>
                  {token.revokedAt === undefined ? (
                    <span className="badge badge-success">live</span>
                  ) : (
                    <span className="badge">revoked {formatTime(token.revokedAt)}</span>
                  )}
                </td>
                <td>
                  {token.revokedAt !== undefined ? null : (
                    <button
                      type="button"
                      className="btn btn-danger"
                      aria-label={`Revoke token ${token.name}`}
                      onClick={() => {
                        revoke.reset();
                        setRevoking(token);
                      }}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Dialog open={created !== undefined} title={`Token ${created?.name ?? ''}`} onClose={() => setCreated(undefined)}>
        <div className="stack">
          <p>Copy the token now: it is not shown again.</p>
          <label htmlFor="created-token" className="visually-hidden">
            The new token
          </label>
          <input
            id="created-token"
            className="mono"
            readOnly
            value={created?.token ?? ''}
            onFocus={(event) => event.target.select()}
          />
          <div className="row">
            <button
              type="button"
              className="btn btn-primary"
              onClick={async () => {
                if (created === undefined) return;
                await navigator.clipboard?.writeText(created.token).then(
                  () => setCopied(true),
                  () => setCopied(false),
                );
              }}
            >
              Copy
            </button>
            <button type="button" className="btn" onClick={() => setCreated(undefined)}>
              Done
            </button>
            <span role="status" className="muted">
              {copied ? 'Copied.' : ''}
            </span>
          </div>
        </div>
      </Dialog>
      <Dialog open={revoking !== undefined} title="Revoke the token?" onClose={() => setRevoking(undefined)}>
        <p>
          Revoke <strong>{revoking?.name}</strong>? Every client using it is refused from now on.
        </p>
        <ErrorNotice error={revoke.error} />
        <div className="row">
          <button
            type="button"
            className="btn btn-danger"
            disabled={revoke.isPending}
            onClick={() => revoking !== undefined && revoke.mutate(revoking)}
          >
            Revoke token
          </button>
          <button type="button" className="btn" onClick={() => setRevoking(undefined)}>
            Cancel
          </button>
        </div>
      </Dialog>
    </section>
  );
}
