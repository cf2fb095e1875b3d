import { openGatewayDatabase } from '../store/gateway-database.js';
import type { NewRun, RunEvent, RunLog, RunRecord, RunStatus } from './run-types.js';

interface RunRow {
  id: string;
  session_id: string;
  agent: string;
  model: string | null;
  status: RunStatus;
  on_restart: 'resume' | 'interrupt';
  input: string;
  limits: string;
  reason: string | null;
  text: string | null;
  error: string | null;
  last_seq: number;
  created_at: number;
  updated_at: number;
}

interface EventRow {
  run_id: string;
  seq: number;
  type: string;
  data: string;
  created_at: number;
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

function toRecord(row: RunRow): RunRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    agent: row.agent,
    model: row.model ?? undefined,
    status: row.status,
    onRestart: row.on_restart,
    input: JSON.parse(row.input),
    limits: JSON.parse(row.limits),
    reason: row.reason ?? undefined,
    text: row.text ?? undefined,
    error: row.error ?? undefined,
    lastSeq: row.last_seq,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toEvent(row: EventRow): RunEvent {
  return { runId: row.run_id, seq: row.seq, type: row.type, data: JSON.parse(row.data), createdAt: row.created_at };
}

/**
 * The run log in the workspace's SQLite file (tables `gateway_runs` and `gateway_run_events`, made
 * here; the workspace store's own tables are not touched). WAL mode, full sync, and one immediate
 * transaction per append, so an acknowledged event survives a kill -9.
 */
export function openSqliteRunLog(path: string): RunLog {
  const database = openGatewayDatabase(path);
  database.exec(SCHEMA);
  const insertRun = database.prepare(
    `INSERT INTO gateway_runs (id, session_id, agent, model, status, on_restart, input, limits, created_at, updated_at)
     VALUES (@id, @session_id, @agent, @model, 'queued', @on_restart, @input, @limits, @now, @now)`,
  );
  const selectRun = database.prepare<[string], RunRow>('SELECT * FROM gateway_runs WHERE id = ?');
  const nextSeq = database.prepare<[number, string]>(
    'UPDATE gateway_runs SET last_seq = last_seq + 1, updated_at = ? WHERE id = ? RETURNING last_seq',
  );
  const insertEvent = database.prepare(
    'INSERT INTO gateway_run_events (run_id, seq, type, data, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const selectEvents = database.prepare<[string, number, number], EventRow>(
    'SELECT * FROM gateway_run_events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  );
  const updateStatus = database.prepare(
    `UPDATE gateway_runs SET status = @status, reason = coalesce(@reason, reason), text = coalesce(@text, text),
     error = coalesce(@error, error), updated_at = @now WHERE id = @id`,
  );
  const append = database.transaction((runId: string, type: string, data: string, now: number): RunEvent => {
    const row = nextSeq.get(now, runId) as { last_seq: number } | undefined;
    if (row === undefined) throw new Error(`No run "${runId}" in the run log.`);
    insertEvent.run(runId, row.last_seq, type, data, now);
    return { runId, seq: row.last_seq, type, data: JSON.parse(data), createdAt: now };
  });
  return {
    create(run: NewRun) {
      insertRun.run({
        id: run.id,
        session_id: run.sessionId,
        agent: run.agent,
        model: run.model ?? null,
        on_restart: run.onRestart,
        input: JSON.stringify(run.input),
        limits: JSON.stringify(run.limits),
        now: Date.now(),
      });
      return toRecord(selectRun.get(run.id) as RunRow);
    },
    get(runId) {
      const row = selectRun.get(runId);
      return row === undefined ? undefined : toRecord(row);
    },
    list(options = {}) {
      const clauses: string[] = [];
      const values: (string | number)[] = [];
      if (options.sessionId !== undefined) {
        clauses.push('session_id = ?');
        values.push(options.sessionId);
      }
      if (options.status !== undefined && options.status.length > 0) {
        clauses.push(`status IN (${options.status.map(() => '?').join(', ')})`);
        values.push(...options.status);
      }
      const where = clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`;
      const rows = database
        .prepare<(string | number)[], RunRow>(`SELECT * FROM gateway_runs ${where} ORDER BY created_at, rowid LIMIT ?`)
        .all(...values, options.limit ?? 1000);
      return rows.map(toRecord);
    },
    append(runId, type, data) {
      return append.immediate(runId, type, JSON.stringify(data), Date.now());
    },
    events(runId, afterSeq, limit = 10_000) {
      return selectEvents.all(runId, afterSeq, limit).map(toEvent);
    },
    setStatus(runId, status, final = {}) {
      updateStatus.run({
        id: runId,
        status,
        reason: final.reason ?? null,
        text: final.text ?? null,
        error: final.error ?? null,
        now: Date.now(),
      });
      const row = selectRun.get(runId);
      return row === undefined ? undefined : toRecord(row);
    },
    close() {
      if (database.open) database.close();
    },
  };
}
