/** What a queue hands a dispatched run to: executes it to its end (or until it is handed back). */
export interface RunWorker {
  execute(runId: string): Promise<void>;
}

/**
 * Carries dispatched runs to the workers that execute them: in one process (SQLite), or through
 * pg-boss to every gateway sharing a PostgreSQL store.
 */
export interface RunQueue {
  /** `gateway-restart` for a single process, `lease-expired` when another worker took a run over. */
  readonly takeoverReason: string;
  /** How long an execution holds a run without renewing (ms). */
  readonly leaseMs: number;
  /** Begins handing runs to `worker`. */
  start(worker: RunWorker): Promise<void>;
  /** This instance's log dispatched a run (committed): carry it to a worker. */
  dispatched(runId: string): void;
  /** A run this instance handed back unfinished: carry it to a worker again (another instance, with a queue). */
  handedBack(runId: string): Promise<void>;
  /** Stops taking new runs (the runs being executed go on). */
  stopTaking(): Promise<void>;
  /** Stops for good. */
  stop(): Promise<void>;
}

/**
 * The embedded queue: a dispatched run is executed at once in this process. There is no other
 * worker to take a run over, so the lease only matters across restarts (see `RunManager.recover`).
 */
export class InProcessRunQueue implements RunQueue {
  readonly takeoverReason = 'gateway-restart';
  readonly leaseMs = 24 * 60 * 60 * 1000;
  #worker: RunWorker | undefined;
  #taking = true;

  async start(worker: RunWorker): Promise<void> {
    this.#worker = worker;
    this.#taking = true;
  }

  dispatched(runId: string): void {
    if (!this.#taking || this.#worker === undefined) return;
    void this.#worker.execute(runId);
  }

  async handedBack(_runId: string): Promise<void> {
    // The next start of this gateway recovers it.
  }

  async stopTaking(): Promise<void> {
    this.#taking = false;
  }

  async stop(): Promise<void> {
    this.#taking = false;
  }
}
