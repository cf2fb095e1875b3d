// pnpm bench (in packages/gateway), the cron part: fire jitter (actual start minus scheduled instant) of the
// cron scheduler with 10,000 jobs in a SQLite store, against bare setTimeout calls aimed at the same instants,
// measured in the same run, one after the other. Each occurrence is claimed in the store's log and handed to a
// run host that accepts at once (the agent's own time is not part of the jitter).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openStore, parseCronSchedule } from '@boxagnts/workspace';
import BetterSqlite3 from 'better-sqlite3';
import type { CronRunHost, CronRunRecord } from '../src/index.js';
import { CronScheduler } from '../src/index.js';

const jobs = Number(process.env.BENCH_CRON_JOBS ?? 10_000);
const windowSeconds = Number(process.env.BENCH_CRON_SECONDS ?? 12);
const burst = Number(process.env.BENCH_CRON_BURST ?? 1000);
const line = (text: string) => process.stdout.write(`${text}\n`);

function stats(samples: number[]): { p50: number; p99: number; max: number; n: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0, n: sorted.length };
}
const show = (label: string, s: ReturnType<typeof stats>) =>
  `${label.padEnd(34)} n=${String(s.n).padStart(4)}  p50 ${s.p50.toFixed(1).padStart(6)} ms  p99 ${s.p99.toFixed(1).padStart(6)} ms  max ${s.max.toFixed(1).padStart(6)} ms`;

/** A run host that accepts each run at once and ends it right away; it records when each start came. */
class InstantHost implements CronRunHost {
  readonly lateness: number[] = [];
  readonly scheduled: number[] = [];
  readonly #listeners = new Set<(change: { type: 'started' | 'ended'; record: CronRunRecord }) => void>();
  #count = 0;
  async start(request: Parameters<CronRunHost['start']>[0]) {
    const now = Date.now();
    this.lateness.push(now - request.origin.scheduledFor);
    this.scheduled.push(request.origin.scheduledFor);
    const record = { id: `run-${++this.#count}`, sessionId: request.sessionId, status: 'running', startedAt: now };
    queueMicrotask(() => {
      const ended = { ...record, status: 'completed', reason: 'end_turn', finishedAt: Date.now(), costUsd: 0 };
      for (const listener of this.#listeners) listener({ type: 'ended', record: ended });
    });
    return record;
  }
  subscribe(listener: (change: { type: 'started' | 'ended'; record: CronRunRecord }) => void) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  async get(runId: string): Promise<CronRunRecord> {
    return { id: runId, sessionId: '', status: 'completed', reason: 'end_turn' };
  }
  async cancel() {
    return undefined;
  }
}

/** Bare setTimeout calls aimed at `instants`: how late each fires. */
function baseline(instants: number[]): Promise<number[]> {
  const lateness: number[] = [];
  return new Promise((resolve) => {
    let left = instants.length;
    for (const at of instants) {
      setTimeout(
        () => {
          lateness.push(Date.now() - at);
          if (--left === 0) resolve(lateness);
        },
        Math.max(0, at - Date.now()),
      );
    }
  });
}

const dir = await mkdtemp(join(tmpdir(), 'boxagnts-cron-bench-'));
const path = join(dir, 'workspace.db');
const store = await openStore({ kind: 'sqlite', path });

// 10,000 jobs, each every 10 minutes at its own second: about jobs/600 occurrences a second.
const expression = (index: number) => `${index % 60} ${Math.floor(index / 60) % 10}-59/10 * * * *`;
const raw = new BetterSqlite3(path);
const created = Date.now();
const insert = raw.prepare(
  `INSERT INTO cron_jobs (id, name, schedule, timezone, prompt, overlap, created_at, updated_at, scheduled_from)
   VALUES (?, ?, ?, 'UTC', 'p', 'allow', ?, ?, ?)`,
);
raw.transaction(() => {
  for (let index = 0; index < jobs; index += 1)
    insert.run(`job-${index}`, `job ${index}`, expression(index), created, created, created);
})();
raw.close();

// Which occurrences fall in a window: the same instants for the baseline and for the scheduler.
function occurrencesBetween(from: number, to: number): number[] {
  const instants: number[] = [];
  const seen = new Map<string, number[]>();
  for (let index = 0; index < jobs; index += 1) {
    const key = expression(index);
    let list = seen.get(key);
    if (list === undefined) {
      list = parseCronSchedule(key, 'UTC', { requireFuture: false })
        .nextRuns(3, from - 1)
        .filter((at) => at <= to);
      seen.set(key, list);
    }
    instants.push(...list);
  }
  return instants;
}

// 1. Baseline: setTimeout at every instant of a window.
const baseFrom = Math.ceil((Date.now() + 1500) / 1000) * 1000;
const baseInstants = occurrencesBetween(baseFrom, baseFrom + windowSeconds * 1000 - 1);
const baseLateness = await baseline(baseInstants);

// 2. The scheduler over the same kind of window, right after. Occurrences count from now (the jobs are new).
const reset = new BetterSqlite3(path);
reset.prepare('UPDATE cron_jobs SET scheduled_from = ?').run(Date.now());
reset.close();
const host = new InstantHost();
const heapBefore = process.memoryUsage().heapUsed;
const startedAt = performance.now();
const scheduler = new CronScheduler({ store: store.cron, runs: host, syncIntervalMs: 3_600_000 });
await scheduler.start();
const startMs = performance.now() - startedAt;
const heapAfter = process.memoryUsage().heapUsed;
const from = Date.now();
await new Promise((resolve) => setTimeout(resolve, windowSeconds * 1000));
await scheduler.idle();
// Occurrences due once the scheduler had started (those during its start are the start's cost, shown above).
const measured = host.lateness.filter((_late, index) => (host.scheduled[index] ?? 0) >= from);

line(`cron: ${jobs} jobs (each every 10 minutes), ${windowSeconds} s windows, SQLite store, immediate run host`);
line(
  `  scheduler start (load, catch-up check, arm): ${startMs.toFixed(0)} ms; heap +${((heapAfter - heapBefore) / 1024 / 1024).toFixed(1)} MiB; timers armed: 1 (+1 sync)`,
);
const base = stats(baseLateness);
const cron = stats(measured);
line(show('  setTimeout at the instants', base));
line(show('  cron scheduler (claim + start)', cron));
line(
  `  ratio scheduler/setTimeout: p50 ${(cron.p50 / Math.max(base.p50, 0.5)).toFixed(1)}x, p99 ${(cron.p99 / Math.max(base.p99, 0.5)).toFixed(1)}x; ${measured.length} fires measured (${host.lateness.length - measured.length} more were due during the start)`,
);
await scheduler.stop();

// 3. A burst: `burst` jobs due at the same second (the worst case: every claim is one store write).
const baseAt = Math.ceil((Date.now() + 1500) / 1000) * 1000;
const burstBase = stats(await baseline(Array.from({ length: burst }, () => baseAt)));
const burstAt = Math.ceil((Date.now() + 3000) / 1000) * 1000;
const burstStore = await openStore({ kind: 'sqlite', path: join(dir, 'burst.db') });
const second = new Date(burstAt).getUTCSeconds();
const minute = new Date(burstAt).getUTCMinutes();
const hour = new Date(burstAt).getUTCHours();
const rawBurst = new BetterSqlite3(join(dir, 'burst.db'));
const insertBurst = rawBurst.prepare(
  `INSERT INTO cron_jobs (id, name, schedule, timezone, prompt, overlap, created_at, updated_at, scheduled_from)
   VALUES (?, ?, ?, 'UTC', 'p', 'allow', ?, ?, ?)`,
);
const now = Date.now();
rawBurst.transaction(() => {
  for (let index = 0; index < burst; index += 1)
    insertBurst.run(`b-${index}`, `b ${index}`, `${second} ${minute} ${hour} * * *`, now, now, now);
})();
rawBurst.close();
const burstHost = new InstantHost();
const burstScheduler = new CronScheduler({ store: burstStore.cron, runs: burstHost, syncIntervalMs: 3_600_000 });
await burstScheduler.start();
await new Promise((resolve) => setTimeout(resolve, Math.max(0, burstAt - Date.now()) + 200));
for (let waited = 0; burstHost.lateness.length < burst && waited < 60_000; waited += 50)
  await new Promise((resolve) => setTimeout(resolve, 50));
if (burstHost.lateness.length < burst) line(`  only ${burstHost.lateness.length} of ${burst} started within a minute`);
await burstScheduler.idle();
const burstCron = stats(burstHost.lateness);
line(`cron burst: ${burst} jobs due in the same second`);
line(show('  setTimeout at the instant', burstBase));
line(show('  cron scheduler (claim + start)', burstCron));
line(
  `  ${(burst / Math.max(burstCron.max / 1000, 0.001)).toFixed(0)} occurrences/s claimed and started (last one ${burstCron.max.toFixed(0)} ms after the instant)`,
);
await burstScheduler.stop();
await burstStore.close();
await store.close();
await rm(dir, { recursive: true, force: true });
