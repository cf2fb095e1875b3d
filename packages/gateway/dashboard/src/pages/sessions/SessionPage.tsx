import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { deleteSession, exportSession, forkSession, getSession, renameSession } from '../../api/sessions';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/PageHeader';
import { downloadBlob, exportFileName, formatTime } from './format';
import { MessageView } from './MessageView';
import { resultsByCall } from './transcript-blocks';
import './sessions.css';

type Action = { kind: 'rename' } | { kind: 'delete' } | { kind: 'fork'; seq: number } | undefined;

/** One session: its transcript, with rename, fork at a message, export, delete and "Continue in chat". */
export function SessionPage() {
  const id = useParams().sessionId ?? '';
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [action, setAction] = useState<Action>();
  const [title, setTitle] = useState('');
  const query = useQuery({ queryKey: ['session', id], queryFn: ({ signal }) => getSession(id, signal) });
  const detail = query.data;
  const results = useMemo(() => resultsByCall(detail?.messages ?? []), [detail]);

  // A search hit links to `#message-<seq>`: bring that message into view once the transcript is there.
  useEffect(() => {
    if (detail === undefined || location.hash === '') return;
    const target = document.getElementById(location.hash.slice(1));
    target?.scrollIntoView({ block: 'start' });
    target?.focus({ preventScroll: true });
  }, [detail, location.hash]);

  const close = () => setAction(undefined);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['sessions'] });
  const rename = useMutation({
    mutationFn: (value: string) => renameSession(id, value),
    onSuccess: async () => {
      close();
      await Promise.all([query.refetch(), refresh()]);
    },
  });
  const fork = useMutation({
    mutationFn: ({ seq, value }: { seq: number; value: string }) =>
      forkSession(id, seq, value === '' ? undefined : value),
    onSuccess: async (created) => {
      close();
      await refresh();
      await queryClient.invalidateQueries({ queryKey: ['session', id] });
      navigate(`/sessions/${encodeURIComponent(created.id)}`);
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteSession(id),
    onSuccess: async () => {
      close();
      // Only leave the page: dropping the query while this page still observes it would fetch it again (404).
      navigate('/sessions');
      await refresh();
    },
  });
  const download = useMutation({
    mutationFn: () => exportSession(id),
    onSuccess: (blob) => downloadBlob(blob, exportFileName(id)),
  });

  if (query.isPending) {
    return (
      <>
        <PageHeader title="Session" />
        <p role="status">Loading the session…</p>
      </>
    );
  }
  if (detail === undefined) {
    return (
      <>
        <PageHeader title="Session" />
        <ErrorNotice error={query.error} label="Could not load the session" />
        <p>
          <Link to="/sessions">Back to the sessions</Link>
        </p>
      </>
    );
  }
  const session = detail.session;
  const parent = session.parentSessionId;
  const forkAt = action?.kind === 'fork' ? action.seq : 0;
  return (
    <>
      <p className="breadcrumb-line">
        <Link to="/sessions">Sessions</Link>
        {parent === undefined ? null : (
          <>
            {' / '}
            <Link to={`/sessions/${encodeURIComponent(parent)}`}>{parent}</Link>
          </>
        )}
      </p>
      <PageHeader title={session.title || session.id}>
        <Link className="btn btn-primary" to={`/chat/${encodeURIComponent(session.id)}`}>
          Continue in chat
        </Link>
        <button
          type="button"
          className="btn"
          onClick={() => {
            setTitle(session.title);
            rename.reset();
            setAction({ kind: 'rename' });
          }}
        >
          Rename
        </button>
        <button type="button" className="btn" disabled={download.isPending} onClick={() => download.mutate()}>
          {download.isPending ? 'Exporting…' : 'Export'}
        </button>
        <button
          type="button"
          className="btn btn-danger"
          onClick={() => {
            remove.reset();
            setAction({ kind: 'delete' });
          }}
        >
          Delete
        </button>
      </PageHeader>
      <ErrorNotice error={download.error} label="Export failed" />
      <dl className="session-facts">
        <div>
          <dt>Id</dt>
          <dd>
            <code>{session.id}</code>
          </dd>
        </div>
        <div>
          <dt>Kind</dt>
          <dd>
            {session.kind === 'fork' && parent !== undefined
              ? `Fork of ${parent} at message ${session.forkedAtSeq ?? '?'}`
              : session.kind === 'sub-agent'
                ? `Sub-agent of ${parent ?? 'another session'}`
                : 'Session'}
          </dd>
        </div>
        <div>
          <dt>Agent</dt>
          <dd>{session.agent ?? 'default'}</dd>
        </div>
        <div>
          <dt>Model</dt>
          <dd>{session.model ?? 'default'}</dd>
        </div>
        <div>
          <dt>Messages</dt>
          <dd>{session.messageCount}</dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>{formatTime(session.updatedAt)}</dd>
        </div>
      </dl>
      {detail.children.length === 0 ? null : (
        <section className="card children" aria-labelledby="children-heading">
          <h2 id="children-heading">Forks and sub-agents</h2>
          <ul>
            {detail.children.map((child) => (
              <li key={child.id}>
                <Link to={`/sessions/${encodeURIComponent(child.id)}`}>{child.title || child.id}</Link>{' '}
                <span className="muted">
                  {child.kind === 'fork' ? `fork at message ${child.forkedAtSeq ?? '?'}` : 'sub-agent'} ·{' '}
                  {child.messageCount} messages
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section className="transcript" aria-label="Transcript">
        {detail.messages.length === 0 ? (
          <p className="muted">This session has no messages yet. Continue it in chat to add some.</p>
        ) : (
          detail.messages.map((entry) => (
            <MessageView
              key={entry.seq}
              entry={entry}
              results={results}
              subAgentSessions={detail.subAgentSessions}
              onFork={(seq) => {
                setTitle(`${session.title || session.id} (fork at ${seq})`);
                fork.reset();
                setAction({ kind: 'fork', seq });
              }}
            />
          ))
        )}
      </section>

      <Dialog open={action?.kind === 'rename'} title="Rename the session" onClose={close}>
        <form
          className="stack"
          onSubmit={(event) => {
            event.preventDefault();
            rename.mutate(title.trim());
          }}
        >
          <label className="field">
            <span>Title</span>
            <input required maxLength={500} value={title} onChange={(event) => setTitle(event.target.value)} />
          </label>
          <ErrorNotice error={rename.error} label="Rename failed" />
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={rename.isPending || title.trim() === ''}>
              Save title
            </button>
            <button type="button" className="btn" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>

      <Dialog open={action?.kind === 'fork'} title={`Fork at message ${forkAt}`} onClose={close}>
        <form
          className="stack"
          onSubmit={(event) => {
            event.preventDefault();
            fork.mutate({ seq: forkAt, value: title.trim() });
          }}
        >
          <p>The fork is a new session with messages 1 to {forkAt} of this one; this session stays as it is.</p>
          <label className="field">
            <span>Title of the fork</span>
            <input maxLength={500} value={title} onChange={(event) => setTitle(event.target.value)} />
          </label>
          <ErrorNotice error={fork.error} label="Fork failed" />
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={fork.isPending}>
              Create the fork
            </button>
            <button type="button" className="btn" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>

      <Dialog open={action?.kind === 'delete'} title="Delete the session?" onClose={close}>
        <div className="stack">
          <p>
            “{session.title || session.id}” and its {session.messageCount} messages will be deleted. This cannot be
            undone; export it first to keep a copy.
          </p>
          <ErrorNotice error={remove.error} label="Delete failed" />
          <div className="row">
            <button
              type="button"
              className="btn btn-danger"
              disabled={remove.isPending}
              onClick={() => remove.mutate()}
            >
              Delete for good
            </button>
            <button type="button" className="btn" onClick={close}>
              Cancel
            </button>
          </div>
        </div>
      </Dialog>
    </>
  );
}
