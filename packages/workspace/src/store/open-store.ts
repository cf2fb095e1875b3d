import type { Kysely } from 'kysely';
import { createCronStore } from '../cron/cron-store.js';
import { createSiteStore } from '../sites/site-store.js';
import { migrateStore } from './migrate.js';
import { openPostgresBackend, type PostgresBackendOptions } from './postgres-backend.js';
import { createWorkspaceSessionStore } from './session-store.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from './session-writes.js';
import { openSqliteBackend, type SqliteBackendOptions } from './sqlite-backend.js';
import type { StoreBackend } from './store-backend.js';
import type { StoreDatabase } from './store-database.js';
import { StoreError, toStoreError } from './store-error.js';
import type { StoreConfig, WorkspaceStore } from './store-types.js';
import { createUsageStore } from './usage-store.js';

/** Tuning of {@link openStore}; every field is optional. */
export interface OpenStoreOptions {
  /** SQLite settings: busy timeout and `synchronous` level (FULL by default). */
  sqlite?: SqliteBackendOptions;
  /** PostgreSQL settings: pool size. */
  postgres?: PostgresBackendOptions;
  /**
   * Largest message one append (or import) may store, in bytes of its JSON (content and provider
   * metadata); a larger one is refused whole with a `too-large` StoreError. Default
   * {@link DEFAULT_MAX_MESSAGE_BYTES} (16 MiB).
   */
  maxMessageBytes?: number;
}

function closedError(): StoreError {
  return new StoreError({ reason: 'closed', message: 'The store was closed; open it again with openStore().' });
}

/** Wraps a backend so that every use after `close()` fails with a `closed` StoreError. */
function closable(backend: StoreBackend): StoreBackend & { readonly isClosed: boolean } {
  let closed = false;
  return {
    kind: backend.kind,
    get database(): Kysely<StoreDatabase> {
      if (closed) throw closedError();
      return backend.database;
    },
    readMessages(sessionId) {
      if (closed) return Promise.reject(closedError());
      return backend.readMessages(sessionId);
    },
    write(work) {
      if (closed) return Promise.reject(closedError());
      return backend.write(work);
    },
    async close() {
      if (closed) return;
      closed = true;
      await backend.close();
    },
    get isClosed() {
      return closed;
    },
  };
}

function openBackend(config: StoreConfig, options: OpenStoreOptions): StoreBackend {
  if (config?.kind === 'sqlite') {
    if (typeof config.path !== 'string' || config.path === '') {
      throw new StoreError({
        reason: 'invalid-input',
        message: 'A SQLite store needs a file path, e.g. { kind: "sqlite", path: "workspace.db" }.',
      });
    }
    return openSqliteBackend(config.path, options.sqlite);
  }
  if (config?.kind === 'postgres') {
    if (typeof config.url !== 'string' || !/^postgres(ql)?:\/\//.test(config.url)) {
      throw new StoreError({
        reason: 'invalid-input',
        message: 'A PostgreSQL store needs a URL like postgres://user@host:5432/database.',
      });
    }
    return openPostgresBackend(config.url, options.postgres);
  }
  throw new StoreError({
    reason: 'invalid-input',
    message: `Unknown store kind ${JSON.stringify((config as { kind?: unknown } | undefined)?.kind)}; use "sqlite" or "postgres".`,
  });
}

/**
 * Opens the workspace store and brings its schema up to date: SQLite by default (one file, WAL,
 * immediate write transactions), or PostgreSQL when several gateways share state.
 *
 * @example
 * const store = await openStore({ kind: 'sqlite', path: join(workspaceDir, 'workspace.db') });
 * await store.sessions.append('s1', [{ message: { role: 'user', content: 'Hello' } }]);
 * const history = await store.sessions.resume('s1');
 * await store.close();
 */
export async function openStore(config: StoreConfig, options: OpenStoreOptions = {}): Promise<WorkspaceStore> {
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  if (!Number.isSafeInteger(maxMessageBytes) || maxMessageBytes < 1) {
    throw new StoreError({
      reason: 'invalid-input',
      message: `maxMessageBytes must be a positive whole number of bytes (got ${String(maxMessageBytes)}); leave it out for the default of ${DEFAULT_MAX_MESSAGE_BYTES}.`,
    });
  }
  const backend = closable(openBackend(config, options));
  try {
    await migrateStore(backend);
  } catch (error) {
    await backend.close().catch(() => undefined);
    throw toStoreError(error, 'Opening the store');
  }
  const usage = createUsageStore(backend);
  return {
    kind: backend.kind,
    sessions: createWorkspaceSessionStore(backend, (record) => usage.record(record), maxMessageBytes),
    usage,
    sites: createSiteStore(backend),
    cron: createCronStore(backend),
    async schemaVersion() {
      try {
        const row = await backend.database
          .selectFrom('schema_version')
          .select((builder) => builder.fn.max('version').as('version'))
          .executeTakeFirst();
        return Number(row?.version ?? 0);
      } catch (error) {
        throw toStoreError(error, 'Reading the schema version');
      }
    },
    close: () => backend.close(),
  };
}
