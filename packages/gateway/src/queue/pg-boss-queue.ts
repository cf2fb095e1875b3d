import PgBoss from 'pg-boss';
import type { RunLog } from '../runs/run-types.js';
import { isFinalStatus } from '../runs/run-types.js';
import type { DispatchInTransaction } from '../store/postgres-run-log.js';
import type { PostgresRunSignals } from './postgres-signals.js';
import type { RunQueue, RunWorker } from './run-queue.js';

/** The pg-boss queue that carries the runs of every gateway sharing a PostgreSQL database. */
export const RUN_QUEUE_NAME = 'boxagnts-runs';

/** Options of {@link PgBossRunQueue}. */
export interface PgBossRunQueueOptions {
  /** The PostgreSQL URL (the workspace store's). */
  url: string;
  log: RunLog;
  signals: PostgresRunSignals;
  /** How long a run stays with a worker that stopped renewing it before another takes it over; default 30,000 ms. */
  leaseMs?: number;
  /** Runs this gateway executes at once; default 16. 0: it accepts, serves and streams runs but executes none. */
  concurrency?: number;
  /** How often an idle worker looks for jobs without a wake-up (delayed lease checks fall due); default 1,000 ms. */
  pollMs?: number;
  /** pg-boss's schema; default `pgboss`. */
  schema?: string;
}

/**
 * Runs distributed through pg-boss 10. Every dispatched run is a job (sent in the run log's own
 * transaction). A gateway fetches jobs while it has free slots (SKIP LOCKED: one gateway per job),
 * hands each run to its worker, which claims it in the run log with a lease it renews, and before
 * completing the job sends a delayed lease-check job for the run (`startAfter` one lease later,
 * one queued per run: the queue's `short` policy with the run's key). When that check falls due on
 * any gateway the run is either final (done), still renewed (the check is sent again), or its
 * worker died: the lease has expired, the claim succeeds and the run resumes from its stored history.
 *
 * pg-boss 10 has no heartbeat and fails a handler that outlives `expireInSeconds`, so a job is not
 * held for a whole run; the lease lives in the run log, and pg-boss carries and times the checks.
 */
export class PgBossRunQueue implements RunQueue {
  readonly takeoverReason = 'worker-lost';
  readonly leaseMs: number;
  readonly boss: PgBoss;
  readonly #options: PgBossRunQueueOptions;
  readonly #concurrency: number;
  readonly #pollMs: number;
  #worker: RunWorker | undefined;
  #running = 0;
  #taking = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #offDispatch: (() => void) | undefined;

  constructor(options: PgBossRunQueueOptions) {
    this.#options = options;
    this.leaseMs = Math.max(1000, options.leaseMs ?? 30_000);
    this.#concurrency = Math.max(0, Math.floor(options.concurrency ?? 16));
    this.#pollMs = Math.max(100, options.pollMs ?? 1000);
    const leaseSeconds = Math.ceil(this.leaseMs / 1000);
    this.boss = new PgBoss({
      connectionString: options.url,
      schema: options.schema ?? 'pgboss',
      max: 4,
      // Expired jobs (a gateway died between fetching and completing) are retried after about a lease.
      maintenanceIntervalSeconds: Math.max(1, leaseSeconds),
    });
    this.boss.on('error', () => undefined);
  }

  /** Sends a run's job through the run log's transaction (pg-boss's `db` option). */
  readonly dispatchInTransaction: DispatchInTransaction = async (db, runId) => {
    await this.boss.send(RUN_QUEUE_NAME, { runId }, { db, singletonKey: `run:${runId}` });
  };

  /** Starts pg-boss (creating its schema on first use) and the queue. */
  async open(): Promise<void> {
    await this.boss.start();
    // Gateways starting together race to create the queue (pg-boss may report a deadlock): retry.
    for (let attempt = 0; ; attempt++) {
      if ((await this.boss.getQueue(RUN_QUEUE_NAME)) !== null) return;
      try {
        await this.boss.createQueue(RUN_QUEUE_NAME, {
          name: RUN_QUEUE_NAME,
          policy: 'short',
          retryLimit: 1000,
          retryDelay: 0,
          expireInSeconds: Math.max(2, Math.ceil((2 * this.leaseMs) / 1000)),
        });
        return;
      } catch (error) {
        if (attempt >= 10) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 250));
      }
    }
  }

  async start(worker: RunWorker): Promise<void> {
    if (this.#taking || this.#concurrency === 0) return;
    this.#worker = worker;
    this.#taking = true;
    this.#offDispatch = this.#options.signals.onDispatch(() => this.#wake?.());
    this.#loop = this.#run();
  }

  dispatched(_runId: string): void {
    this.#wake?.();
  }

  async handedBack(runId: string): Promise<void> {
    await this.boss.send(RUN_QUEUE_NAME, { runId }, { singletonKey: `back:${runId}:${Date.now()}` });
    await this.#options.signals.control(runId, 'inject').catch(() => undefined);
  }

  async stopTaking(): Promise<void> {
    this.#taking = false;
    this.#offDispatch?.();
    this.#wake?.();
    await this.#loop;
  }

  async stop(): Promise<void> {
    await this.stopTaking();
    await this.boss.stop({ graceful: true, wait: true, close: true, timeout: 5000 }).catch(() => undefined);
  }

  async #sleep(): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, this.#pollMs);
      timer.unref();
      this.#wake = done;
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
    this.#wake = undefined;
  }

  async #run(): Promise<void> {
    while (this.#taking) {
      const free = this.#concurrency - this.#running;
      if (free <= 0) {
        await this.#sleep();
        continue;
      }
      let jobs: PgBoss.Job<{ runId: string }>[] = [];
      try {
        jobs = (await this.boss.fetch<{ runId: string }>(RUN_QUEUE_NAME, { batchSize: Math.min(free, 20) })) ?? [];
      } catch {
        jobs = [];
      }
      if (!this.#taking) {
        // Fetched while stopping: hand them straight back (they go to another gateway).
        if (jobs.length > 0)
          await this.boss
            .fail(
              RUN_QUEUE_NAME,
              jobs.map((job) => job.id),
            )
            .catch(() => undefined);
        return;
      }
      if (jobs.length === 0) {
        await this.#sleep();
        continue;
      }
      await Promise.all(jobs.map((job) => this.#handle(job.data.runId).catch(() => undefined)));
      await this.boss
        .complete(
          RUN_QUEUE_NAME,
          jobs.map((job) => job.id),
        )
        .catch(() => undefined);
    }
  }

  async #handle(runId: string): Promise<void> {
    const record = await this.#options.log.get(runId);
    if (record === undefined || isFinalStatus(record.status)) return;
    // The next lease check, sent before this job completes (a gateway dying in between leaves this
    // job to expire and be retried).
    await this.boss.send(
      RUN_QUEUE_NAME,
      { runId },
      { singletonKey: `lease:${runId}`, startAfter: new Date(Date.now() + this.leaseMs + 250) },
    );
    this.#running++;
    void (this.#worker as RunWorker)
      .execute(runId)
      .catch(() => undefined)
      .finally(() => {
        this.#running--;
        this.#wake?.();
      });
  }
}
