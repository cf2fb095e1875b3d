import pg from 'pg';
import type {
  BusyPolicy,
  CreatedRun,
  FinishedRun,
  FinishGuard,
  NewRun,
  RunEvent,
  RunFinal,
  RunLog,
  RunRecord,
  RunStatus,
} from '../runs/run-types.js';
import { busyError, type EventRow, originJobId, type RunRow, toRunEvent, toRunRecord } from '../runs/sqlite-run-log.js';

/** A connection a job can be sent through (pg-boss's `db` option shape). */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Sends a dispatched run to the queue inside the log's transaction (so the two commit together). */
export type DispatchInTransaction = (db: SqlExecutor, runId: string) => Promise<void>;

/** The NOTIFY channels of the gateway's tables. */
export const CHANNELS = {
  /** Payload: run id; a run has a new event or status. */
  events: 'boxagnts_run_events',
  /** Payload: `{"runId", "kind"}`; for the instance executing the run. */
  control: 'boxagnts_run_control',
  /** Payload: empty; a run was dispatched (workers fetch). */
  dispatch: 'boxagnts_run_dispatch',
} as const;

const NOW_MS = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/** The gateway's own migrations of its PostgreSQL tables (applied in order, once, under a lock). */
const MIGRATIONS: string[] = [
  `CREATE TABLE gateway_runs (
     ord BIGSERIAL UNIQUE,
     id TEXT PRIMARY KEY,
     session_id TEXT NOT NULL,
     agent TEXT NOT NULL,
     model TEXT,
     status TEXT NOT NULL,
     on_restart TEXT NOT NULL,
     origin TEXT NOT NULL,
     origin_job_id TEXT,
     dedupe_key TEXT UNIQUE,
     timeout_ms BIGINT,
     input TEXT NOT NULL,
     limits TEXT NOT NULL,
     reason TEXT,
     text TEXT,
     error TEXT,
     cost_usd DOUBLE PRECISION,
     last_seq INTEGER NOT NULL DEFAULT 0,
     dispatched BOOLEAN NOT NULL,
     priority INTEGER NOT NULL DEFAULT 0,
     owner TEXT,
     attempt INTEGER NOT NULL DEFAULT 0,
     lease_until BIGINT,
     cancel_requested BOOLEAN NOT NULL DEFAULT false,
     created_at BIGINT NOT NULL,
     started_at BIGINT,
     finished_at BIGINT,
     updated_at BIGINT NOT NULL
   );
   CREATE INDEX gateway_runs_session ON gateway_runs (session_id, ord);
   CREATE INDEX gateway_runs_live ON gateway_runs (status) WHERE status IN ('queued', 'running');
   CREATE INDEX gateway_runs_origin_job ON gateway_runs (origin_job_id, ord) WHERE origin_job_id IS NOT NULL;
   CREATE TABLE gateway_run_events (
     run_id TEXT NOT NULL REFERENCES gateway_runs (id) ON DELETE CASCADE,
     seq INTEGER NOT NULL,
     type TEXT NOT NULL,
     data TEXT NOT NULL,
     created_at BIGINT NOT NULL,
     PRIMARY KEY (run_id, seq)
   );`,
];

/** Applies the gateway's migrations to a database (idempotent; concurrent callers wait on one lock). */
export async function migrateGatewayTables(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('boxagnts-gateway-migrate', 0))`);
    await client.query(
      'CREATE TABLE IF NOT EXISTS gateway_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT)',
    );
    const { rows } = await client.query<{ version: number }>('SELECT max(version) AS version FROM gateway_migrations');
    const done = Number(rows[0]?.version ?? 0);
    for (let index = done; index < MIGRATIONS.length; index++) {
      await client.query(MIGRATIONS[index] as string);
      await client.query(`INSERT INTO gateway_migrations (version, applied_at) VALUES ($1, ${NOW_MS})`, [index + 1]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

const INT8_OID = 20;
const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return (value: string) => Number(value);
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  },
};

/** A pool for the gateway's tables (BIGINT read as numbers for this pool only). */
export function openGatewayPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, types: typeParsers });
  // An idle client's socket error would otherwise crash the process.
  pool.on('error', () => undefined);
  return pool;
}

type Client = pg.PoolClient;

async function inTransaction<T>(pool: pg.Pool, work: (client: Client) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

const sessionLock = `SELECT pg_advisory_xact_lock(hashtextextended('boxagnts-session:' || $1, 0))`;

/**
 * The run log in gateway-owned tables of a PostgreSQL database (the workspace store's, when the store
 * is on PostgreSQL), shared by every gateway on it. A dispatched run is sent to the queue in the
 * same transaction that creates (or, for the next run of a session, finishes) a run, so a run is
 * never accepted without being queued nor queued twice; every event write NOTIFYs the run's watchers.
 */
export function createPostgresRunLog(pool: pg.Pool, dispatch: DispatchInTransaction): RunLog {
  const executorOf = (client: Client): SqlExecutor => ({
    executeSql: (text, values) => client.query(text, values as unknown[]),
  });
  const selectRun = async (db: pg.Pool | Client, runId: string): Promise<RunRecord | undefined> => {
    const { rows } = await db.query<RunRow>('SELECT * FROM gateway_runs WHERE id = $1', [runId]);
    return rows[0] === undefined ? undefined : toRunRecord(rows[0]);
  };
  const appendSql = (fence: 'any' | 'live' | 'attempt') => `
    WITH s AS (
      UPDATE gateway_runs SET last_seq = last_seq + 1, updated_at = ${NOW_MS}
      WHERE id = $1 ${fence === 'any' ? '' : `AND status IN ('queued', 'running')`}
        ${fence === 'attempt' ? 'AND attempt = $4' : ''}
      RETURNING last_seq, updated_at
    ), n AS (SELECT pg_notify('${CHANNELS.events}', $1) FROM s)
    INSERT INTO gateway_run_events (run_id, seq, type, data, created_at)
    SELECT $1, s.last_seq, $2, $3, s.updated_at FROM s CROSS JOIN n
    RETURNING run_id, seq, type, data, created_at`;
  const appendAny = appendSql('any');
  const appendLive = appendSql('live');
  const appendFenced = appendSql('attempt');
  const appendWith = async (
    db: pg.Pool | Client,
    runId: string,
    type: string,
    data: Record<string, unknown>,
    attempt: number | 'live' | 'any',
  ): Promise<RunEvent | undefined> => {
    const text = attempt === 'any' ? appendAny : attempt === 'live' ? appendLive : appendFenced;
    const values: unknown[] = [runId, type, JSON.stringify(data)];
    if (typeof attempt === 'number') values.push(attempt);
    const { rows } = await db.query<EventRow>(text, values);
    return rows[0] === undefined ? undefined : toRunEvent(rows[0]);
  };

  return {
    async create(run: NewRun, busy: BusyPolicy): Promise<CreatedRun> {
      if (run.dedupeKey !== undefined) {
        const { rows } = await pool.query<RunRow>('SELECT * FROM gateway_runs WHERE dedupe_key = $1', [run.dedupeKey]);
        if (rows[0] !== undefined)
          return { record: toRunRecord(rows[0]), deduplicated: true, dispatched: false, activeRunId: undefined };
      }
      const result = await inTransaction(pool, async (client) => {
        await client.query(sessionLock, [run.sessionId]);
        const active = await client.query<{ id: string }>(
          `SELECT id FROM gateway_runs WHERE session_id = $1 AND status IN ('queued', 'running')
           ORDER BY dispatched DESC, ord LIMIT 1`,
          [run.sessionId],
        );
        const activeId = active.rows[0]?.id;
        if (activeId !== undefined && busy === 'reject') {
          if (run.dedupeKey === undefined) throw busyError(run.sessionId, activeId);
        }
        const inserted = await client.query<RunRow>(
          `INSERT INTO gateway_runs (id, session_id, agent, model, status, on_restart, origin, origin_job_id, dedupe_key,
             timeout_ms, input, limits, dispatched, priority, created_at, updated_at)
           VALUES ($1, $2, $3, $4, 'queued', $5, $6, $7, $8, $9, $10, $11, $12, $13, ${NOW_MS}, ${NOW_MS})
           ON CONFLICT (dedupe_key) DO NOTHING RETURNING *`,
          [
            run.id,
            run.sessionId,
            run.agent,
            run.model ?? null,
            run.onRestart,
            JSON.stringify(run.origin ?? { kind: 'user' }),
            originJobId(run.origin),
            run.dedupeKey ?? null,
            run.timeoutMs ?? null,
            JSON.stringify(run.input),
            JSON.stringify(run.limits),
            activeId === undefined,
            busy === 'interrupt' ? 1 : 0,
          ],
        );
        if (inserted.rows[0] === undefined) return undefined;
        if (activeId !== undefined && busy === 'reject') throw busyError(run.sessionId, activeId);
        await appendWith(
          client,
          run.id,
          'run-queued',
          { sessionId: run.sessionId, agent: run.agent, model: run.model ?? null },
          'any',
        );
        if (activeId === undefined) {
          await dispatch(executorOf(client), run.id);
          await client.query(`SELECT pg_notify('${CHANNELS.dispatch}', '')`);
        }
        return {
          record: (await selectRun(client, run.id)) as RunRecord,
          deduplicated: false,
          dispatched: activeId === undefined,
          activeRunId: activeId,
        };
      });
      if (result !== undefined) return result;
      // Another gateway created the run of this key first (the unique key waited for its commit).
      const { rows } = await pool.query<RunRow>('SELECT * FROM gateway_runs WHERE dedupe_key = $1', [run.dedupeKey]);
      return { record: toRunRecord(rows[0] as RunRow), deduplicated: true, dispatched: false, activeRunId: undefined };
    },
    get: (runId) => selectRun(pool, runId),
    async list(options = {}) {
      const clauses: string[] = [];
      const values: unknown[] = [];
      if (options.sessionId !== undefined) {
        values.push(options.sessionId);
        clauses.push(`session_id = $${values.length}`);
      }
      if (options.originJobId !== undefined) {
        values.push(options.originJobId);
        clauses.push(`origin_job_id = $${values.length}`);
      }
      if (options.status !== undefined && options.status.length > 0) {
        values.push([...options.status]);
        clauses.push(`status = ANY($${values.length})`);
      }
      values.push(options.limit ?? 1000);
      const where = clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`;
      const { rows } = await pool.query<RunRow>(
        `SELECT * FROM gateway_runs ${where} ORDER BY ord LIMIT $${values.length}`,
        values,
      );
      return rows.map(toRunRecord);
    },
    append: (runId, type, data, attempt) => appendWith(pool, runId, type, data, attempt ?? 'live'),
    async events(runId, afterSeq, limit = 10_000) {
      const { rows } = await pool.query<EventRow>(
        'SELECT * FROM gateway_run_events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
        [runId, afterSeq, limit],
      );
      return rows.map(toRunEvent);
    },
    async claim(runId, owner, leaseMs) {
      const { rows } = await pool.query<RunRow>(
        `UPDATE gateway_runs SET status = 'running', owner = $2, lease_until = ${NOW_MS} + $3, attempt = attempt + 1,
           started_at = coalesce(started_at, ${NOW_MS}), updated_at = ${NOW_MS}
         WHERE id = $1 AND dispatched AND status IN ('queued', 'running')
           AND (owner IS NULL OR lease_until IS NULL OR lease_until < ${NOW_MS})
         RETURNING *`,
        [runId, owner, leaseMs],
      );
      return rows[0] === undefined ? undefined : toRunRecord(rows[0]);
    },
    async renew(runId, attempt, leaseMs) {
      const { rows } = await pool.query<{ cancel_requested: boolean }>(
        `UPDATE gateway_runs SET lease_until = ${NOW_MS} + $3
         WHERE id = $1 AND attempt = $2 AND status IN ('queued', 'running') RETURNING cancel_requested`,
        [runId, attempt, leaseMs],
      );
      if (rows[0] === undefined) return 'lost';
      return rows[0].cancel_requested ? 'cancel' : 'held';
    },
    async release(runId, attempt) {
      await pool.query('UPDATE gateway_runs SET owner = NULL, lease_until = NULL WHERE id = $1 AND attempt = $2', [
        runId,
        attempt,
      ]);
    },
    async finish(runId: string, status: RunStatus, final: RunFinal, guard: FinishGuard = {}) {
      const session = await pool.query<{ session_id: string }>('SELECT session_id FROM gateway_runs WHERE id = $1', [
        runId,
      ]);
      const sessionId = session.rows[0]?.session_id;
      if (sessionId === undefined) return undefined;
      return inTransaction(pool, async (client): Promise<FinishedRun | undefined> => {
        await client.query(sessionLock, [sessionId]);
        const updated = await client.query<{ dispatched: boolean }>(
          `UPDATE gateway_runs SET status = $2, reason = coalesce($3, reason), text = coalesce($4, text),
             error = coalesce($5, error), cost_usd = coalesce($6, cost_usd), finished_at = ${NOW_MS},
             owner = NULL, lease_until = NULL, updated_at = ${NOW_MS}
           WHERE id = $1 AND status IN ('queued', 'running') AND ($7::int IS NULL OR attempt = $7)
             AND ($8::int IS NULL OR last_seq = $8)
           RETURNING dispatched`,
          [
            runId,
            status,
            final.reason ?? null,
            final.text ?? null,
            final.error ?? null,
            final.costUsd ?? null,
            guard.attempt ?? null,
            guard.lastSeq ?? null,
          ],
        );
        const row = updated.rows[0];
        if (row === undefined) return undefined;
        const event = (await appendWith(client, runId, 'run-end', { status, ...final }, 'any')) as RunEvent;
        let next: string | undefined;
        if (row.dispatched) {
          const waiting = await client.query<{ id: string }>(
            `SELECT id FROM gateway_runs WHERE session_id = $1 AND status = 'queued' AND NOT dispatched
             ORDER BY priority DESC, ord LIMIT 1`,
            [sessionId],
          );
          next = waiting.rows[0]?.id;
          if (next !== undefined) {
            await client.query('UPDATE gateway_runs SET dispatched = true WHERE id = $1', [next]);
            await dispatch(executorOf(client), next);
            await client.query(`SELECT pg_notify('${CHANNELS.dispatch}', '')`);
          }
        }
        return { record: (await selectRun(client, runId)) as RunRecord, event, next };
      });
    },
    async requestCancel(runId) {
      await pool.query(
        `UPDATE gateway_runs SET cancel_requested = true WHERE id = $1 AND status IN ('queued', 'running')`,
        [runId],
      );
    },
    async cancelRequested(runId) {
      const { rows } = await pool.query<{ cancel_requested: boolean }>(
        'SELECT cancel_requested FROM gateway_runs WHERE id = $1',
        [runId],
      );
      return rows[0]?.cancel_requested === true;
    },
    async close() {
      // The pool belongs to the caller.
    },
  };
}
