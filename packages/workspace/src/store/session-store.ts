import { randomUUID } from 'node:crypto';
import type { ModelCallRecord } from '@boxagnts/query';
import { historyFromEntries } from '@boxagnts/query';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { createChildSession } from './child-sessions.js';
import { describeIssue, sessionIdSchema } from './entry-schema.js';
import { storedMessagesFromColumns } from './message-load.js';
import { formatSessionJsonl, parseSessionJsonl } from './session-jsonl.js';
import { sessionRecordFromRow } from './session-rows.js';
import { searchMessages } from './session-search.js';
import {
  appendPrepared,
  assertSessionId,
  DEFAULT_MAX_MESSAGE_BYTES,
  insertMessages,
  prepareEntries,
} from './session-writes.js';
import type { StoreBackend } from './store-backend.js';
import type { SessionKind, StoreDatabase } from './store-database.js';
import { StoreError, toStoreError } from './store-error.js';
import type { StoredMessage, WorkspaceSessionStore } from './store-types.js';

const titleSchema = z.string().max(1000);
const createSchema = z.object({
  id: sessionIdSchema.optional(),
  title: titleSchema.optional(),
  agent: z.string().max(200).optional(),
  model: z.string().max(200).optional(),
});

function invalid(message: string, sessionId?: string): StoreError {
  return new StoreError({ reason: 'invalid-input', message, ...(sessionId === undefined ? {} : { sessionId }) });
}

function notFound(sessionId: string, doing: string): StoreError {
  return new StoreError({
    reason: 'not-found',
    sessionId,
    message: `${doing}: there is no session ${JSON.stringify(sessionId)}; list the sessions to find its id.`,
  });
}

function conflict(sessionId: string, doing: string): StoreError {
  return new StoreError({
    reason: 'conflict',
    sessionId,
    message: `${doing}: a session ${JSON.stringify(sessionId)} exists already; pass another id (or none, for a new one).`,
  });
}

/** The kind of an imported session: kept when its parent is here, else a plain session. */
function importedKind(orphan: boolean, kind: SessionKind | undefined, forkedAtSeq: number | undefined): SessionKind {
  if (orphan) return 'session';
  return kind ?? (forkedAtSeq === undefined ? 'session' : 'fork');
}

async function run<T>(doing: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toStoreError(error, doing);
  }
}

async function sessionRow(database: Kysely<StoreDatabase>, sessionId: string) {
  return database.selectFrom('sessions').selectAll().where('id', '=', sessionId).executeTakeFirst();
}

async function messagesOf(backend: StoreBackend, sessionId: string): Promise<StoredMessage[]> {
  return storedMessagesFromColumns(sessionId, await backend.readMessages(sessionId));
}

/**
 * The workspace's session store over one backend: append-only history (each batch one write
 * transaction), session management, fork, full-text search, JSONL export/import and resume.
 */
export function createWorkspaceSessionStore(
  backend: StoreBackend,
  recordUsage: (record: ModelCallRecord) => Promise<void>,
  maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES,
): WorkspaceSessionStore {
  const store: WorkspaceSessionStore = {
    async append(sessionId, entries) {
      assertSessionId(sessionId);
      const rows = prepareEntries(sessionId, entries, maxMessageBytes);
      if (rows.length === 0) return;
      await run(`Appending to session ${sessionId}`, () =>
        backend.write((transaction) => appendPrepared(transaction, sessionId, entries, rows)),
      );
    },

    async load(sessionId) {
      assertSessionId(sessionId);
      return run(`Loading session ${sessionId}`, () => messagesOf(backend, sessionId));
    },

    async create(session = {}) {
      const parsed = createSchema.safeParse(session);
      if (!parsed.success) throw invalid(`Cannot create the session (${describeIssue(parsed.error)}); fix that field.`);
      const id = parsed.data.id ?? randomUUID();
      return run(`Creating session ${id}`, () =>
        backend.write(async (transaction) => {
          if ((await sessionRow(transaction, id)) !== undefined) throw conflict(id, 'Creating a session');
          const now = Date.now();
          const row = {
            id,
            title: parsed.data.title ?? '',
            agent: parsed.data.agent ?? null,
            model: parsed.data.model ?? null,
            parent_session_id: null,
            forked_at_seq: null,
            created_at: now,
            updated_at: now,
            message_count: 0,
            kind: 'session' as const,
          };
          await transaction.insertInto('sessions').values(row).execute();
          return sessionRecordFromRow(row);
        }),
      );
    },

    async get(sessionId) {
      assertSessionId(sessionId);
      const row = await run(`Reading session ${sessionId}`, () => sessionRow(backend.database, sessionId));
      return row === undefined ? undefined : sessionRecordFromRow(row);
    },

    async list(options = {}) {
      const limit = Math.min(1000, Math.max(1, Math.floor(options.limit ?? 100)));
      const offset = Math.max(0, Math.floor(options.offset ?? 0));
      if (!Number.isFinite(limit) || !Number.isFinite(offset)) throw invalid('list() takes a finite limit and offset.');
      const parent = options.parentSessionId;
      if (parent !== undefined) assertSessionId(parent);
      const rows = await run('Listing sessions', () =>
        backend.database
          .selectFrom('sessions')
          .selectAll()
          .$if(parent !== undefined, (query) => query.where('parent_session_id', '=', parent as string))
          .orderBy('updated_at', 'desc')
          .orderBy('id')
          .limit(limit)
          .offset(offset)
          .execute(),
      );
      return rows.map(sessionRecordFromRow);
    },

    async rename(sessionId, title) {
      assertSessionId(sessionId);
      if (!titleSchema.safeParse(title).success)
        throw invalid('A session title is a string of at most 1000 characters.', sessionId);
      await run(`Renaming session ${sessionId}`, () =>
        backend.write(async (transaction) => {
          const result = await transaction
            .updateTable('sessions')
            .set({ title, updated_at: Date.now() })
            .where('id', '=', sessionId)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) === 0) throw notFound(sessionId, 'Renaming a session');
        }),
      );
    },

    async delete(sessionId) {
      assertSessionId(sessionId);
      await run(`Deleting session ${sessionId}`, () =>
        backend.write(async (transaction) => {
          await transaction.deleteFrom('messages').where('session_id', '=', sessionId).execute();
          const result = await transaction.deleteFrom('sessions').where('id', '=', sessionId).executeTakeFirst();
          if (Number(result.numDeletedRows) === 0) throw notFound(sessionId, 'Deleting a session');
        }),
      );
    },

    async fork(sessionId, atSeq, options = {}) {
      assertSessionId(sessionId);
      const parsed = createSchema.pick({ id: true, title: true }).safeParse(options);
      if (!parsed.success)
        throw invalid(`Cannot fork session ${sessionId} (${describeIssue(parsed.error)}).`, sessionId);
      const id = parsed.data.id ?? randomUUID();
      return run(`Forking session ${sessionId}`, () =>
        backend.write(async (transaction) => {
          const source = await sessionRow(transaction, sessionId);
          if (source === undefined) throw notFound(sessionId, 'Forking a session');
          const count = Number(source.message_count);
          if (!Number.isInteger(atSeq) || atSeq < 1 || atSeq > count) {
            throw invalid(
              `Cannot fork session ${sessionId} at message ${atSeq}: pick a seq from 1 to ${count}.`,
              sessionId,
            );
          }
          if ((await sessionRow(transaction, id)) !== undefined) throw conflict(id, 'Forking a session');
          const now = Date.now();
          const row = {
            id,
            title: parsed.data.title ?? `${source.title || sessionId} (fork)`,
            agent: source.agent,
            model: source.model,
            parent_session_id: sessionId,
            forked_at_seq: atSeq,
            created_at: now,
            updated_at: now,
            message_count: atSeq,
            kind: 'fork' as const,
          };
          await transaction.insertInto('sessions').values(row).execute();
          await transaction
            .insertInto('messages')
            .columns([
              'session_id',
              'seq',
              'role',
              'content',
              'provider_metadata',
              'model',
              'usage',
              'compaction',
              'created_at',
              'search_text',
            ])
            .expression((builder) =>
              builder
                .selectFrom('messages')
                .select((select) => [
                  select.val(id).as('session_id'),
                  'seq',
                  'role',
                  'content',
                  'provider_metadata',
                  'model',
                  'usage',
                  'compaction',
                  'created_at',
                  'search_text',
                ])
                .where('session_id', '=', sessionId)
                .where('seq', '<=', atSeq)
                .orderBy('seq'),
            )
            .execute();
          return sessionRecordFromRow(row);
        }),
      );
    },

    async createChildSession(child) {
      await createChildSession(backend, child);
    },

    async children(sessionId) {
      assertSessionId(sessionId);
      return store.list({ parentSessionId: sessionId, limit: 1000 });
    },

    async recordUsage(record) {
      await recordUsage(record);
    },

    async search(query, options = {}) {
      if (options.sessionId !== undefined) assertSessionId(options.sessionId);
      return run('Searching messages', () => searchMessages(backend.kind, backend.database, query, options));
    },

    async exportJsonl(sessionId) {
      assertSessionId(sessionId);
      return run(`Exporting session ${sessionId}`, async () => {
        const row = await sessionRow(backend.database, sessionId);
        if (row === undefined) throw notFound(sessionId, 'Exporting a session');
        return formatSessionJsonl(sessionRecordFromRow(row), await messagesOf(backend, sessionId));
      });
    },

    async importJsonl(jsonl, options = {}) {
      const parsed = parseSessionJsonl(jsonl);
      const id = options.id ?? parsed.session.id;
      assertSessionId(id);
      const rows = prepareEntries(id, parsed.entries, maxMessageBytes);
      return run(`Importing session ${id}`, () =>
        backend.write(async (transaction) => {
          if ((await sessionRow(transaction, id)) !== undefined) throw conflict(id, 'Importing a session');
          const { parentSessionId, forkedAtSeq } = parsed.session;
          // The parent is kept only when it exists here (an export from another workspace may name one that does not).
          const parent = parentSessionId === undefined ? undefined : await sessionRow(transaction, parentSessionId);
          const row = {
            id,
            title: parsed.session.title,
            agent: parsed.session.agent ?? null,
            model: parsed.session.model ?? null,
            parent_session_id: parent === undefined ? null : parent.id,
            forked_at_seq: parent === undefined ? null : (forkedAtSeq ?? null),
            created_at: parsed.session.createdAt,
            updated_at: parsed.session.updatedAt,
            message_count: rows.length,
            kind: importedKind(parent === undefined, parsed.session.kind, forkedAtSeq),
          };
          await transaction.insertInto('sessions').values(row).execute();
          await insertMessages(transaction, id, 1, rows, Date.now());
          return sessionRecordFromRow(row);
        }),
      );
    },

    async resume(sessionId) {
      return historyFromEntries(await store.load(sessionId));
    },
  };
  return store;
}
