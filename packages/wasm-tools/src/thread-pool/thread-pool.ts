import { type ResourceLimits, Worker } from 'node:worker_threads';
import type { ThreadHostMessage, ThreadReplyMessage } from './thread-protocol.js';

/** How one task on a {@link ThreadPool} ended. */
export type ThreadOutcome<Value> =
  | { status: 'ok'; value: Value }
  /** The handler threw; `message` is what it threw. */
  | { status: 'error'; message: string }
  /**
   * A time limit passed: `run`, the task ran past its deadline and its worker was terminated;
   * `start`, no worker began it within the start timeout (all busy, or a thread too slow to start).
   */
  | { status: 'timed-out'; stage: 'start' | 'run' }
  /** The caller's signal aborted; the worker was terminated unless it stopped within the grace period. */
  | { status: 'aborted' }
  /** The worker reached its heap cap and was stopped by V8. */
  | { status: 'out-of-memory'; message: string }
  /** The worker died otherwise (failed to start, crashed, pool closed). */
  | { status: 'crashed'; message: string };

/** Options of {@link ThreadPool}. */
export interface ThreadPoolOptions {
  /** The worker script (see `resolveWorkerScript`). */
  script: () => Promise<URL>;
  /** Most worker threads alive at once; more tasks wait in order. */
  maxWorkers: number;
  /** Heap cap of each worker, in MiB (V8 `maxOldGenerationSizeMb`). */
  maxHeapMb: number;
  /** An idle worker exits after this long, in ms. Default 30 000. */
  idleMs?: number;
}

/** Default {@link ThreadRunOptions.startTimeoutMs}, in ms. */
export const THREAD_START_TIMEOUT_MS = 60_000;

/** Per-task settings of {@link ThreadPool.run}. */
export interface ThreadRunOptions {
  /**
   * Time the task may run, in ms: from when its worker reports it running (see `serveThreadTasks`)
   * until the worker is terminated. Time spent waiting for a free worker or for a thread to start
   * is not the task's: it is bounded by `startTimeoutMs`.
   */
  deadlineMs: number;
  /**
   * Time from submission until a worker reports the task running, in ms: the wait for a free
   * worker, a new thread's start and the handler's own preparation. Default
   * {@link THREAD_START_TIMEOUT_MS}.
   */
  startTimeoutMs?: number;
  /** Aborts the task: the worker is asked to stop and terminated after `graceMs`. */
  signal?: AbortSignal;
  /** Time a cancelled task gets to answer before its worker is terminated, in ms. Default 200. */
  graceMs?: number;
}

interface Job {
  payload: unknown;
  settle: (outcome: ThreadOutcome<unknown>) => void;
  settled: boolean;
  worker?: PooledWorker;
  id: number;
  cleanup: () => void;
  /** The worker reported the task running: the start timeout ends and the deadline starts. */
  running: () => void;
}

interface PooledWorker {
  thread: Worker;
  job?: Job;
  idleTimer?: NodeJS.Timeout;
  dead: boolean;
}

/**
 * A small pool of worker threads that run tasks where a deadline can stop them: the host's event
 * loop never waits on a task, a task past its deadline (counted from when its worker begins it, so
 * a queue or a cold thread never eats a task's time) or cancelled and not stopping has its worker
 * terminated, which stops even a synchronous loop, and each worker has a V8 heap cap, so a
 * task that allocates without bound kills only its worker. Workers are reused across tasks, one
 * task at a time each, start on demand, have an empty `process.env`, and exit when idle; idle
 * workers never keep the process alive.
 */
export class ThreadPool {
  readonly #options: ThreadPoolOptions;
  readonly #workers = new Set<PooledWorker>();
  readonly #idle: PooledWorker[] = [];
  readonly #queue: Job[] = [];
  #nextId = 1;
  #closed = false;
  #started = 0;
  #scriptPromise: Promise<URL> | undefined;
  #scriptUrl: URL | undefined;

  constructor(options: ThreadPoolOptions) {
    this.#options = options;
  }

  /** Worker threads started so far (for tests and measurements). */
  get workersStarted(): number {
    return this.#started;
  }

  /** Worker threads alive now, busy or idle. */
  get liveWorkers(): number {
    return this.#workers.size;
  }

  /** Runs one task; never rejects: every failure is a {@link ThreadOutcome}. */
  run<Value>(payload: unknown, options: ThreadRunOptions): Promise<ThreadOutcome<Value>> {
    return new Promise<ThreadOutcome<Value>>((resolve) => {
      if (this.#closed) return resolve({ status: 'crashed', message: 'the thread pool is closed' });
      if (options.signal?.aborted === true) return resolve({ status: 'aborted' });
      const graceMs = options.graceMs ?? 200;
      let graceTimer: NodeJS.Timeout | undefined;
      let deadline: NodeJS.Timeout | undefined;
      const job: Job = {
        payload,
        id: this.#nextId++,
        settled: false,
        settle: (outcome) => {
          if (job.settled) return;
          job.settled = true;
          job.cleanup();
          resolve(outcome as ThreadOutcome<Value>);
        },
        cleanup: () => {
          clearTimeout(startTimer);
          clearTimeout(deadline);
          clearTimeout(graceTimer);
          options.signal?.removeEventListener('abort', onAbort);
        },
        running: () => {
          if (job.settled || deadline !== undefined) return;
          clearTimeout(startTimer);
          deadline = setTimeout(() => stop({ status: 'timed-out', stage: 'run' }), options.deadlineMs);
        },
      };
      const stop = (outcome: ThreadOutcome<unknown>) => {
        const worker = job.worker;
        if (worker === undefined) {
          const index = this.#queue.indexOf(job);
          if (index >= 0) this.#queue.splice(index, 1);
        } else {
          this.#kill(worker);
        }
        job.settle(outcome);
      };
      const startTimer = setTimeout(
        () => stop({ status: 'timed-out', stage: 'start' }),
        options.startTimeoutMs ?? THREAD_START_TIMEOUT_MS,
      );
      const onAbort = () => {
        if (job.worker === undefined) return stop({ status: 'aborted' });
        job.worker.thread.postMessage({ type: 'cancel', id: job.id } satisfies ThreadHostMessage);
        graceTimer = setTimeout(() => stop({ status: 'aborted' }), graceMs);
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.#script().then(
        () => {
          if (job.settled) return;
          this.#queue.push(job);
          this.#dispatch();
        },
        (error: unknown) =>
          job.settle({ status: 'crashed', message: error instanceof Error ? error.message : String(error) }),
      );
    });
  }

  #script(): Promise<URL> {
    this.#scriptPromise ??= this.#options.script().then((url) => {
      this.#scriptUrl = url;
      return url;
    });
    this.#scriptPromise.catch(() => {
      this.#scriptPromise = undefined;
    });
    return this.#scriptPromise;
  }

  /** Terminates every worker; running and queued tasks end as `crashed`, later ones at once. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.settle({ status: 'crashed', message: 'the thread pool was closed' });
    const threads = [...this.#workers].map((worker) => {
      worker.job?.settle({ status: 'crashed', message: 'the thread pool was closed' });
      return this.#kill(worker);
    });
    await Promise.all(threads);
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      let worker: PooledWorker | undefined;
      try {
        worker = this.#idle.pop() ?? (this.#workers.size < this.#options.maxWorkers ? this.#spawn() : undefined);
      } catch (error) {
        // A thread that cannot start (out of threads or memory) fails the task waiting longest.
        const message = `a worker thread could not start: ${error instanceof Error ? error.message : String(error)}`;
        this.#queue.shift()?.settle({ status: 'crashed', message });
        continue;
      }
      if (worker === undefined) return;
      const job = this.#queue.shift() as Job;
      clearTimeout(worker.idleTimer);
      worker.job = job;
      job.worker = worker;
      worker.thread.ref();
      this.#post(worker, job);
    }
  }

  #post(worker: PooledWorker, job: Job): void {
    try {
      worker.thread.postMessage({ type: 'task', id: job.id, payload: job.payload } satisfies ThreadHostMessage);
    } catch (error) {
      job.settle({ status: 'error', message: error instanceof Error ? error.message : String(error) });
      this.#release(worker);
    }
  }

  #spawn(): PooledWorker | undefined {
    const script = this.#scriptUrl;
    if (script === undefined) return undefined;
    this.#started += 1;
    const thread = new Worker(script, { env: {}, resourceLimits: this.#limits(), stdout: true, stderr: true });
    // Worker output is not the host's: it is piped (and never read, since a flowing stream would
    // keep the host process alive), and `serveThreadTasks` silences it at the source.
    const worker: PooledWorker = { thread, dead: false };
    this.#workers.add(worker);
    thread.on('message', (reply: ThreadReplyMessage) => {
      const job = worker.job;
      if (job === undefined || reply.id !== job.id) return;
      if ('running' in reply) return job.running();
      job.settle(reply.ok ? { status: 'ok', value: reply.value } : { status: 'error', message: reply.error });
      this.#release(worker);
    });
    thread.on('error', (error: Error & { code?: string }) => {
      const job = worker.job;
      worker.dead = true;
      void this.#kill(worker);
      if (job === undefined) return;
      job.settle(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? {
              status: 'out-of-memory',
              message: `the task reached the worker's memory cap of ${this.#options.maxHeapMb} MiB`,
            }
          : { status: 'crashed', message: error.message },
      );
    });
    thread.on('exit', (code) => {
      const job = worker.job;
      worker.dead = true;
      void this.#kill(worker);
      job?.settle({ status: 'crashed', message: `the worker thread exited with code ${code}` });
    });
    return worker;
  }

  #limits(): ResourceLimits {
    return { maxOldGenerationSizeMb: this.#options.maxHeapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };
  }

  #release(worker: PooledWorker): void {
    worker.job = undefined;
    if (worker.dead) return;
    if (this.#closed) {
      void this.#kill(worker);
      return;
    }
    worker.thread.unref();
    this.#idle.push(worker);
    worker.idleTimer = setTimeout(() => void this.#kill(worker), this.#options.idleMs ?? 30_000);
    worker.idleTimer.unref();
    this.#dispatch();
  }

  #kill(worker: PooledWorker): Promise<number> {
    worker.dead = true;
    if (this.#workers.delete(worker)) {
      const index = this.#idle.indexOf(worker);
      if (index >= 0) this.#idle.splice(index, 1);
      clearTimeout(worker.idleTimer);
    }
    const stopped = worker.thread.terminate();
    queueMicrotask(() => this.#dispatch());
    return stopped;
  }
}
