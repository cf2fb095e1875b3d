import type {
  SessionDetailJson,
  SessionJson,
  SessionListJson,
  SessionSearchJson,
} from '../../../src/http/api-types/index.js';
import { request, send } from './http';

/** Sessions, most recently updated first; `limit` + `offset` page through them. */
export function listSessions(options: { limit: number; offset: number }, signal?: AbortSignal) {
  return request<SessionListJson>('/sessions', { query: options, ...(signal === undefined ? {} : { signal }) });
}

/** Full-text search over message text; each hit names the session and the message position. */
export function searchSessions(q: string, signal?: AbortSignal) {
  return request<SessionSearchJson>('/sessions/search', {
    query: { q, limit: 50 },
    ...(signal === undefined ? {} : { signal }),
  });
}

/** Path of one session (ids of sub-agent sessions hold a `/`, so the id is encoded). */
export function sessionPath(id: string): string {
  return `/sessions/${encodeURIComponent(id)}`;
}

export function getSession(id: string, signal?: AbortSignal) {
  return request<SessionDetailJson>(sessionPath(id), signal === undefined ? {} : { signal });
}

export function renameSession(id: string, title: string) {
  return request<SessionJson>(sessionPath(id), { method: 'PATCH', body: { title } });
}

export function deleteSession(id: string) {
  return request<void>(sessionPath(id), { method: 'DELETE' });
}

/** A new session holding the messages up to and including position `atSeq`. */
export function forkSession(id: string, atSeq: number, title?: string) {
  return request<SessionJson>(`${sessionPath(id)}/fork`, {
    method: 'POST',
    body: title === undefined ? { atSeq } : { atSeq, title },
  });
}

/** The session as JSON Lines (a header line, then one line per message), as the gateway exports it. */
export async function exportSession(id: string): Promise<Blob> {
  return (await send(`${sessionPath(id)}/export`, { headers: { accept: 'application/x-ndjson' } })).blob();
}

/** Imports an exported session; without `id` the file's own id is kept. */
export function importSession(text: string, id?: string) {
  return request<SessionJson>('/sessions/import', {
    method: 'POST',
    body: text,
    headers: { 'content-type': 'application/x-ndjson' },
    ...(id === undefined || id === '' ? {} : { query: { id } }),
  });
}
