import { type Kysely, sql } from 'kysely';
import { applySchemaV1 } from './schema-v1.js';
import { applySchemaV2 } from './schema-v2.js';
import { applySchemaV3 } from './schema-v3.js';
import { applySchemaV4 } from './schema-v4.js';
import { applySchemaV5 } from './schema-v5.js';
import type { StoreBackend } from './store-backend.js';
import type { StoreDatabase } from './store-database.js';
import { isStoreError, StoreError, toStoreError } from './store-error.js';

/** One step of the schema, applied in its own write transaction with its version row. */
export interface Migration {
  version: number;
  description: string;
  apply(transaction: Kysely<StoreDatabase>, kind: 'sqlite' | 'postgres'): Promise<void>;
}

/** Every schema version in order; a database records the ones applied in `schema_version`. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, description: 'sessions, messages, usage, cron jobs and runs, sites', apply: applySchemaV1 },
  { version: 2, description: 'message counts and full-text search', apply: applySchemaV2 },
  { version: 3, description: 'a stored search vector on PostgreSQL', apply: applySchemaV3 },
  { version: 4, description: 'usage purposes and sub-agent sessions', apply: applySchemaV4 },
  {
    version: 5,
    description: 'cron jobs with time zones and policies, and a log row per occurrence',
    apply: applySchemaV5,
  },
];

/** The schema version this code writes. */
export const LATEST_SCHEMA_VERSION = MIGRATIONS.length;

// Any constant: two processes migrating one PostgreSQL database at once take turns on it.
const POSTGRES_MIGRATION_LOCK = 7_261_001;

async function prepare(transaction: Kysely<StoreDatabase>, kind: 'sqlite' | 'postgres'): Promise<number> {
  if (kind === 'postgres') await sql`SELECT pg_advisory_xact_lock(${POSTGRES_MIGRATION_LOCK})`.execute(transaction);
  await sql`CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)`.execute(
    transaction,
  );
  const row = await transaction
    .selectFrom('schema_version')
    .select((builder) => builder.fn.max('version').as('version'))
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

/** The version recorded in the database (0 when empty). */
export async function currentSchemaVersion(backend: StoreBackend): Promise<number> {
  return backend.write((transaction) => prepare(transaction, backend.kind));
}

/**
 * Brings the database up to `targetVersion` (default: the latest), one transaction per version, so
 * a failed step leaves the previous version intact. Refuses a database newer than this code.
 */
export async function migrateStore(backend: StoreBackend, targetVersion = LATEST_SCHEMA_VERSION): Promise<number> {
  let version = 0;
  for (const migration of MIGRATIONS) {
    if (migration.version > targetVersion) break;
    try {
      version = await backend.write(async (transaction) => {
        const current = await prepare(transaction, backend.kind);
        if (current > LATEST_SCHEMA_VERSION) {
          throw new StoreError({
            reason: 'schema-too-new',
            message: `The database has schema version ${current}, newer than this @boxagnts/workspace (${LATEST_SCHEMA_VERSION}); upgrade @boxagnts/workspace.`,
          });
        }
        if (current >= migration.version) return current;
        await migration.apply(transaction, backend.kind);
        await transaction
          .insertInto('schema_version')
          .values({ version: migration.version, applied_at: Date.now() })
          .execute();
        return migration.version;
      });
    } catch (error) {
      if (isStoreError(error)) throw error;
      const mapped = toStoreError(error, `Upgrading the database to schema version ${migration.version}`);
      if (mapped.reason !== 'database') throw mapped;
      throw new StoreError({
        reason: 'migration-failed',
        message: `Upgrading the database to schema version ${migration.version} (${migration.description}) failed and was rolled back: ${error instanceof Error ? error.message : String(error)}. Restore a backup or report the error.`,
        cause: error,
      });
    }
  }
  return version;
}
