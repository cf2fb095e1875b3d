import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { importSession, listSessions, searchSessions } from '../../api/sessions';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/PageHeader';
import { formatTime } from './format';
import { Snippet } from './Snippet';
import './sessions.css';

const PAGE_SIZE = 25;

function sessionLink(id: string, seq?: number): string {
  return `/sessions/${encodeURIComponent(id)}${seq === undefined ? '' : `#message-${seq}`}`;
}

/** Every session, newest first and paged, with full-text search over the messages and import of an exported file. */
export function SessionsPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(0, Number(params.get('page') ?? '0') || 0);
  const search = params.get('q') ?? '';
  const [draft, setDraft] = useState(search);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);

  // One more than a page tells whether there is a next page.
  const list = useQuery({
    queryKey: ['sessions', page],
    queryFn: ({ signal }) => listSessions({ limit: PAGE_SIZE + 1, offset: page * PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });
  const hits = useQuery({
    queryKey: ['sessions', 'search', search],
    queryFn: ({ signal }) => searchSessions(search, signal),
    enabled: search !== '',
  });
  const upload = useMutation({
    mutationFn: async (file: File) => importSession(await file.text()),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: ['sessions'] });
      navigate(sessionLink(created.id));
    },
  });

  const setQuery = (next: { page?: number; q?: string }) => {
    const values = new URLSearchParams();
    const q = next.q ?? search;
    if (q !== '') values.set('q', q);
    const p = next.page ?? page;
    if (p > 0) values.set('page', String(p));
    setParams(values);
  };
  const rows = list.data?.sessions.slice(0, PAGE_SIZE) ?? [];
  const hasNext = (list.data?.sessions.length ?? 0) > PAGE_SIZE;

  return (
    <>
      <PageHeader title="Sessions">
        <input
          ref={fileInput}
          type="file"
          accept=".jsonl,.ndjson,application/x-ndjson,application/json"
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file !== undefined) upload.mutate(file);
          }}
        />
        <button type="button" className="btn" disabled={upload.isPending} onClick={() => fileInput.current?.click()}>
          {upload.isPending ? 'Importing…' : 'Import a session'}
        </button>
      </PageHeader>
      <ErrorNotice error={upload.error} label="Import failed" />

      <search>
        <form
          className="row search-form"
          onSubmit={(event) => {
            event.preventDefault();
            setQuery({ q: draft.trim(), page: 0 });
          }}
        >
          <label className="field grow">
            <span>Search the messages</span>
            <input type="search" value={draft} maxLength={500} onChange={(event) => setDraft(event.target.value)} />
          </label>
          <button type="submit" className="btn btn-primary">
            Search
          </button>
          {search === '' ? null : (
            <button
              type="button"
              className="btn"
              onClick={() => {
                setDraft('');
                setQuery({ q: '', page: 0 });
              }}
            >
              Clear search
            </button>
          )}
        </form>
      </search>

      {search === '' ? null : (
        <section className="card search-results" aria-labelledby="search-heading">
          <h2 id="search-heading">Messages matching “{search}”</h2>
          <ErrorNotice error={hits.error} label="Search failed" />
          {hits.isPending ? <p role="status">Searching…</p> : null}
          {hits.data?.hits.length === 0 ? <p className="muted">No message matches. Try other words.</p> : null}
          <ul className="hit-list">
            {hits.data?.hits.map((hit) => (
              <li key={`${hit.sessionId}-${hit.seq}`}>
                <Link to={sessionLink(hit.sessionId, hit.seq)}>
                  {hit.sessionId} · message {hit.seq} ({hit.role})
                </Link>
                <div className="hit-snippet">
                  <Snippet text={hit.snippet} />
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}

      <ErrorNotice error={list.error} label="Could not list the sessions" />
      {list.isPending ? <p role="status">Loading sessions…</p> : null}
      {list.data !== undefined && rows.length === 0 ? (
        <div className="card empty">
          <p>{page === 0 ? 'No sessions yet.' : 'No sessions on this page.'}</p>
          <p>
            <Link to="/chat">Start one in Chat</Link>, or import an exported session.
          </p>
        </div>
      ) : null}
      {rows.length === 0 ? null : (
        <table className="table sessions-table">
          <caption className="visually-hidden">Sessions, most recently updated first</caption>
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Agent</th>
              <th scope="col">Kind</th>
              <th scope="col" className="num">
                Messages
              </th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((session) => (
              <tr key={session.id}>
                <td>
                  <Link to={sessionLink(session.id)}>{session.title || session.id}</Link>
                  {session.title === '' ? null : <div className="muted session-id">{session.id}</div>}
                </td>
                <td>{session.agent ?? 'default'}</td>
                <td>
                  {session.kind === 'session' ? (
                    'session'
                  ) : (
                    <span className={`badge ${session.kind === 'fork' ? 'badge-warning' : 'badge-success'}`}>
                      {session.kind}
                    </span>
                  )}
                </td>
                <td className="num">{session.messageCount}</td>
                <td>{formatTime(session.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page === 0 && !hasNext ? null : (
        <nav className="row pager" aria-label="Pages of sessions">
          <button type="button" className="btn" disabled={page === 0} onClick={() => setQuery({ page: page - 1 })}>
            Newer
          </button>
          <span className="muted">Page {page + 1}</span>
          <button type="button" className="btn" disabled={!hasNext} onClick={() => setQuery({ page: page + 1 })}>
            Older
          </button>
        </nav>
      )}
    </>
  );
}
