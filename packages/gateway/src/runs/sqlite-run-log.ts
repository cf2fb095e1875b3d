import { GatewayError } from '../gateway-error.js';
import { openGatewayDatabase } from '../store/gateway-database.js';
import type {
  BusyPolicy,
  CreatedRun,
  FinishedRun,
  FinishGuard,
  NewRun,
  RunEvent,
  RunFinal,
  RunLog,
  RunOrigin,
  RunRecord,
  RunStatus,
} from './run-types.js';

/** A stored run row, as both SQL logs read it (numbers may come back as strings from PostgreSQL). */
export interface RunRow {
  id: string;
  session_id: string;
  agent: string;
  model: string | null;
  status: RunStatus;
  on_restart: 'resume' | 'interrupt';
  origin: string;
  dedupe_key: string | null;
  timeout_ms: number | string | null;
  input: string;
  limits: string;
  reason: string | null;
  text: string | null;
  error: string | null;
  cost_usd: number | string | null;
  last_seq: number | string;
  attempt: number | string;
  created_at: number | string;
  started_at: number | string | null;
  finished_at: number | string | null;
  updated_at: number | string;
}

/** A stored event row. */
export interface EventRow {
  run_id: string;
  seq: number | string;
  type: string;
  data: string;
  created_at: number | string;
}

const optionalNumber = (value: number | string | null): number | undefined =>
  value === null ? undefined : Number(value);

/** A row as a {@link RunRecord}. */
export function toRunRecord(row: RunRow): RunRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    agent: row.agent,
    model: row.model ?? undefined,
    status: row.status,
    onRestart: row.on_restart,
    origin: JSON.parse(row.origin) as RunOrigin,
    dedupeKey: row.dedupe_key ?? undefined,
    timeoutMs: optionalNumber(row.timeout_ms),
    input: JSON.parse(row.input),
    limits: JSON.parse(row.limits),
    reason: row.reason ?? undefined,
    text: row.text ?? undefined,
    error: row.error ?? undefined,
    costUsd: optionalNumber(row.cost_usd),
    lastSeq: Number(row.last_seq),
    attempt: Number(row.attempt),
    createdAt: Number(row.created_at),
    startedAt: optionalNumber(row.started_at),
    finishedAt: optionalNumber(row.finished_at),
    updatedAt: Number(row.updated_at),
  };
}

/** An event row as a {@link RunEvent}. */
export function toRunEvent(row: EventRow): RunEvent {
  return {
    runId: row.run_id,
    seq: Number(row.seq),
    type: row.type,
    data: JSON.parse(row.data),
    createdAt: Number(row.created_at),
  };
}

/** The `conflict` error of a start on a busy session with the `reject` policy. */
export function busyError(sessionId: string, activeRunId: string): GatewayError {
  return new GatewayError({
    reason: 'conflict',
    message: `Session "${sessionId}" is busy with run "${activeRunId}": wait for it, cancel it, or send "busy": "enqueue" or "interrupt".`,
  });
}

/** The origin's job id column value. */
export function originJobId(origin: RunOrigin | undefined): string | null {
  return origin?.kind === 'cron' ? origin.jobId : null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS gateway_runs (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  agent TEXT NOT NULL,
  model TEXT,
  status TEXT NOT NULL,
  on_restart TEXT NOT NULL,
  input TEXT NOT NULL,
  limits TEXT NOT NULL,
  reason TEXT,
  text TEXT,
  error TEXT,
  last_seq INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS gateway_runs_session ON gateway_runs (session_id, created_at);
CREATE INDEX IF NOT EXISTS gateway_runs_status ON gateway_runs (status);
CREATE TABLE IF NOT EXISTS gateway_run_events (
  run_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (run_id, seq)
);
`;

/** Columns added after the first release, with their definitions (existing files gain them in place). */
const ADDED_COLUMNS: [string, string][] = [
  ['origin', `TEXT NOT NULL DEFAULT '{"kind":"user"}'`],
  ['origin_job_id', 'TEXT'],
  ['dedupe_key', 'TEXT'],
  ['timeout_ms', 'INTEGER'],
  ['cost_usd', 'REAL'],
  ['started_at', 'INTEGER'],
  ['finished_at', 'INTEGER'],
  ['dispatched', 'INTEGER NOT NULL DEFAULT 1'],
  ['priority', 'INTEGER NOT NULL DEFAULT 0'],
  ['owner', 'TEXT'],
  ['attempt', 'INTEGER NOT NULL DEFAULT 0'],
  ['lease_until', 'INTEGER'],
  ['cancel_requested', 'INTEGER NOT NULL DEFAULT 0'],
];

const LATER_INDEXES = `
CREATE UNIQUE INDEX IF NOT EXISTS gateway_runs_dedupe ON gateway_runs (dedupe_key) WHERE dedupe_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS gateway_runs_origin_job ON gateway_runs (origin_job_id, created_at) WHERE origin_job_id IS NOT NULL;
`;

/**
 * The run log in a SQLite file (tables `gateway_runs` and `gateway_run_events`, made here; the
 * workspace store's own tables are not touched). WAL mode, full sync, and one immediate transaction
 * per write, so an acknowledged event survives a kill -9. One process uses a file at a time.
 */
export function openSqliteRunLog(path: string): RunLog {
  const database = openGatewayDatabase(path);
  database.exec(SCHEMA);
  const columns = new Set(
    (database.prepare('PRAGMA table_info(gateway_runs)').all() as { name: string }[]).map((column) => column.name),
  );
  for (const [name, definition] of ADDED_COLUMNS) {
    if (!columns.has(name)) database.exec(`ALTER TABLE gateway_runs ADD COLUMN ${name} ${definition}`);
  }
  database.exec(LATER_INDEXES);

  const selectRun = database.prepare<[string], RunRow>('SELECT * FROM gateway_runs WHERE id = ?');
  const selectByKey = database.prepare<[string], RunRow>('SELECT * FROM gateway_runs WHERE dedupe_key = ?');
  const selectActive = database.prepare<[string], { id: string; dispatched: number }>(
    `SELECT id, dispatched FROM gateway_runs WHERE session_id = ? AND status IN ('queued', 'running')
     ORDER BY dispatched DESC, rowid LIMIT 1`,
  );
  const insertRun = database.prepare(
    `INSERT INTO gateway_runs (id, session_id, agent, model, status, on_restart, input, limits, origin, origin_job_id,
       dedupe_key, timeout_ms, dispatched, priority, created_at, updated_at)
     VALUES (@id, @session_id, @agent, @model, 'queued', @on_restart, @input, @limits, @origin, @origin_job_id,
       @dedupe_key, @timeout_ms, @dispatched, @priority, @now, @now)`,
  );
  const nextSeq = database.prepare<[number, string]>(
    'UPDATE gateway_runs SET last_seq = last_seq + 1, updated_at = ? WHERE id = ? RETURNING last_seq',
  );
  const nextSeqLive = database.prepare<[number, string]>(
    `UPDATE gateway_runs SET last_seq = last_seq + 1, updated_at = ?
     WHERE id = ? AND status IN ('queued', 'running') RETURNING last_seq`,
  );
  const nextSeqFenced = database.prepare<[number, string, number]>(
    `UPDATE gateway_runs SET last_seq = last_seq + 1, updated_at = ?
     WHERE id = ? AND attempt = ? AND status IN ('queued', 'running') RETURNING last_seq`,
  );
  const insertEvent = database.prepare(
    'INSERT INTO gateway_run_events (run_id, seq, type, data, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const selectEvents = database.prepare<[string, number, number], EventRow>(
    'SELECT * FROM gateway_run_events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  );
  const claimRun = database.prepare<[string, number, number, number, string, number], RunRow>(
    `UPDATE gateway_runs SET status = 'running', owner = ?, lease_until = ?, attempt = attempt + 1,
       started_at = coalesce(started_at, ?), updated_at = ?
     WHERE id = ? AND dispatched = 1 AND status IN ('queued', 'running')
       AND (owner IS NULL OR lease_until IS NULL OR lease_until < ?)
     RETURNING *`,
  );
  const renewLease = database.prepare<[number, string, number], { cancel_requested: number }>(
    `UPDATE gateway_runs SET lease_until = ? WHERE id = ? AND attempt = ? AND status IN ('queued', 'running')
     RETURNING cancel_requested`,
  );
  const releaseLease = database.prepare<[string, number]>(
    `UPDATE gateway_runs SET owner = NULL, lease_until = NULL WHERE id = ? AND attempt = ?`,
  );
  const finishRun = database.prepare(
    `UPDATE gateway_runs SET status = @status, reason = coalesce(@reason, reason), text = coalesce(@text, text),
       error = coalesce(@error, error), cost_usd = coalesce(@cost_usd, cost_usd), finished_at = @now,
       owner = NULL, lease_until = NULL, updated_at = @now
     WHERE id = @id AND status IN ('queued', 'running') AND (@attempt IS NULL OR attempt = @attempt)
       AND (@last_seq IS NULL OR last_seq = @last_seq)
     RETURNING *`,
  );
  const selectNext = database.prepare<[string], { id: string }>(
    `SELECT id FROM gateway_runs WHERE session_id = ? AND status = 'queued' AND dispatched = 0
     ORDER BY priority DESC, rowid LIMIT 1`,
  );
  const markDispatched = database.prepare<[string]>('UPDATE gateway_runs SET dispatched = 1 WHERE id = ?');
  const markCancel = database.prepare<[string]>(
    `UPDATE gateway_runs SET cancel_requested = 1 WHERE id = ? AND status IN ('queued', 'running')`,
  );
  const selectCancel = database.prepare<[string], { cancel_requested: number }>(
    'SELECT cancel_requested FROM gateway_runs WHERE id = ?',
  );

  /** `attempt`: a number fences on that attempt, `live` needs a live run, `any` appends regardless. */
  const appendNow = (
    runId: string,
    type: string,
    data: string,
    now: number,
    attempt: number | 'live' | 'any',
  ): RunEvent | undefined => {
    const row = (
      attempt === 'any'
        ? nextSeq.get(now, runId)
        : attempt === 'live'
          ? nextSeqLive.get(now, runId)
          : nextSeqFenced.get(now, runId, attempt)
    ) as { last_seq: number } | undefined;
    if (row === undefined) return undefined;
    insertEvent.run(runId, row.last_seq, type, data, now);
    return { runId, seq: row.last_seq, type, data: JSON.parse(data), createdAt: now };
  };

  const create = database.transaction((run: NewRun, busy: BusyPolicy): CreatedRun => {
    if (run.dedupeKey !== undefined) {
      const existing = selectByKey.get(run.dedupeKey);
      if (existing !== undefined)
        return { record: toRunRecord(existing), deduplicated: true, dispatched: false, activeRunId: undefined };
    }
    const active = selectActive.get(run.sessionId);
    if (active !== undefined && busy === 'reject') throw busyError(run.sessionId, active.id);
    const now = Date.now();
    insertRun.run({
      id: run.id,
      session_id: run.sessionId,
      agent: run.agent,
      model: run.model ?? null,
      on_restart: run.onRestart,
      input: JSON.stringify(run.input),
      limits: JSON.stringify(run.limits),
      origin: JSON.stringify(run.origin ?? { kind: 'user' }),
      origin_job_id: originJobId(run.origin),
      dedupe_key: run.dedupeKey ?? null,
      timeout_ms: run.timeoutMs ?? null,
      dispatched: active === undefined ? 1 : 0,
      priority: busy === 'interrupt' ? 1 : 0,
      now,
    });
    appendNow(
      run.id,
      'run-queued',
      JSON.stringify({ sessionId: run.sessionId, agent: run.agent, model: run.model ?? null }),
      now,
      'any',
    );
    return {
      record: toRunRecord(selectRun.get(run.id) as RunRow),
      deduplicated: false,
      dispatched: active === undefined,
      activeRunId: active?.id,
    };
  });

  const finish = database.transaction(
    (runId: string, status: RunStatus, final: RunFinal, guard: FinishGuard): FinishedRun | undefined => {
      const now = Date.now();
      const row = finishRun.get({
        id: runId,
        status,
        reason: final.reason ?? null,
        text: final.text ?? null,
        error: final.error ?? null,
        cost_usd: final.costUsd ?? null,
        attempt: guard.attempt ?? null,
        last_seq: guard.lastSeq ?? null,
        now,
      }) as (RunRow & { dispatched: number }) | undefined;
      if (row === undefined) return undefined;
      const event = appendNow(runId, 'run-end', JSON.stringify({ status, ...final }), now, 'any') as RunEvent;
      let next: string | undefined;
      if (row.dispatched === 1) {
        next = selectNext.get(row.session_id)?.id;
        if (next !== undefined) markDispatched.run(next);
      }
      return { record: toRunRecord(selectRun.get(runId) as RunRow), event, next };
    },
  );

  return {
    async create(run, busy) {
      return create.immediate(run, busy);
    },
    async get(runId) {
      const row = selectRun.get(runId);
      return row === undefined ? undefined : toRunRecord(row);
    },
    async list(options = {}) {
      const clauses: string[] = [];
      const values: (string | number)[] = [];
      if (options.sessionId !== undefined) {
        clauses.push('session_id = ?');
        values.push(options.sessionId);
      }
      if (options.originJobId !== undefined) {
        clauses.push('origin_job_id = ?');
        values.push(options.originJobId);
      }
      if (options.status !== undefined && options.status.length > 0) {
        clauses.push(`status IN (${options.status.map(() => '?').join(', ')})`);
        values.push(...options.status);
      }
      const where = clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`;
      const rows = database
        .prepare<(string | number)[], RunRow>(`SELECT * FROM gateway_runs ${where} ORDER BY created_at, rowid LIMIT ?`)
        .all(...values, options.limit ?? 1000);
      return rows.map(toRunRecord);
    },
    async append(runId, type, data, attempt) {
      return database
        .transaction(appendNow)
        .immediate(runId, type, JSON.stringify(data), Date.now(), attempt ?? 'live');
    },
    async events(runId, afterSeq, limit = 10_000) {
      return selectEvents.all(runId, afterSeq, limit).map(toRunEvent);
    },
    async claim(runId, owner, leaseMs) {
      const now = Date.now();
      const row = claimRun.get(owner, now + leaseMs, now, now, runId, now);
      return row === undefined ? undefined : toRunRecord(row);
    },
    async renew(runId, attempt, leaseMs) {
      const row = renewLease.get(Date.now() + leaseMs, runId, attempt);
      if (row === undefined) return 'lost';
      return row.cancel_requested === 1 ? 'cancel' : 'held';
    },
    async release(runId, attempt) {
      releaseLease.run(runId, attempt);
    },
    async finish(runId, status, final, guard = {}) {
      return finish.immediate(runId, status, final, guard);
    },
    async requestCancel(runId) {
      markCancel.run(runId);
    },
    async cancelRequested(runId) {
      return selectCancel.get(runId)?.cancel_requested === 1;
    },
    async close() {
      if (database.open) database.close();
    },
  };
}
