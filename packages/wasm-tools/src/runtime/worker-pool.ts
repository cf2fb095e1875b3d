import { type ChildProcess, fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { touchCacheEntrySync } from './cache-prune.js';
import { ComponentRuntimeError } from './component-runtime-error.js';
import { missingAssetMessage } from './package-assets.js';
import type { ComponentRef, WorkerJob, WorkerOutcome } from './worker-protocol.js';

/**
 * Node 20's V8 needs a flag for the extended-const proposal the transpiled components use; Node 22
 * and later ship it on and refuse the flag as a bad option, so it is passed on Node 20 only.
 */
export const EXTENDED_CONST_FLAG: readonly string[] =
  Number(process.versions.node.split('.')[0]) < 22 ? ['--experimental-wasm-extended-const'] : [];

const MIB = 1024 * 1024;
const WASM_PAGE = 64 * 1024;
const STDERR_TAIL = 4096;
/** The warm keys a worker is assumed to hold (mirrors the worker's LRU size). */
const WARM_KEYS_TRACKED = 8;
/** How long the pool stays idle before it forks another worker ahead of need. */
const GROW_DELAY_MS = 250;
/** Workers that die before they are ready, in a row, before queued calls are failed. */
const MAX_STARTUP_FAILURES = 3;

/** Options of a {@link WorkerPool}. */
export interface WorkerPoolOptions {
  workers: number;
  maxMemoryBytes: number;
  /** Path of the worker entry; default: worker.mjs beside this module (sources) or dist/runtime/worker.cjs. */
  workerPath?: string;
  /**
   * Cache folder for the built worker's V8 code cache (the runtime's transpile cache folder).
   * With it, a CommonJS worker bundle that has worker-cached-entry.cjs beside it is forked
   * through that entry (see {@link workerLaunch}); without it, the bundle is forked as it is.
   */
  codeCacheDir?: string;
}

/** The entry beside a CommonJS worker bundle that runs it with a code cache. */
export const CACHED_ENTRY = 'worker-cached-entry.cjs';

/** What the pool forks: the module and its arguments. */
export interface WorkerLaunch {
  modulePath: string;
  args: string[];
}

/**
 * How to fork the worker: a CommonJS bundle (the build's worker.cjs) with worker-cached-entry.cjs
 * beside it and a cache folder is run by that entry with a code cache file named after the
 * bundle's SHA-256, the Node binary and version and the worker's flags (V8 checks only the
 * source's length, so the content hash keeps another bundle's cache out; the flags keep runtimes
 * with other limits from overwriting each other's). Anything else, or a bundle or folder that
 * cannot be read or made, is forked as it is.
 */
export function workerLaunch(workerPath: string, execArgv: readonly string[], codeCacheDir?: string): WorkerLaunch {
  const plain = { modulePath: workerPath, args: [] };
  if (codeCacheDir === undefined || !workerPath.endsWith('.cjs')) return plain;
  const entry = join(dirname(workerPath), CACHED_ENTRY);
  if (!existsSync(entry)) return plain;
  try {
    const hash = createHash('sha256')
      .update(readFileSync(workerPath))
      .update(`\0${process.version}\0${process.execPath}\0${execArgv.join('\0')}`)
      .digest('hex')
      .slice(0, 32);
    const dir = join(codeCacheDir, 'worker-code');
    mkdirSync(dir, { recursive: true });
    const cacheFile = join(dir, `${basename(workerPath)}.${hash}.v8-cache`);
    touchCacheEntrySync(cacheFile);
    return { modulePath: entry, args: [workerPath, cacheFile] };
  } catch {
    return plain;
  }
}

/** Per-run options: the deadline, a cancel signal, and the warm-instance key for routing. */
export interface RunOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  affinityKey?: string;
}

/** How long `close()` lets an idle worker exit by itself before it is killed. */
const IDLE_EXIT_GRACE_MS = 2_000;

interface PoolWorker {
  child: ChildProcess;
  ready: boolean;
  started: boolean;
  busy: boolean;
  /** Preload messages sent and not yet answered. */
  preloading: number;
  /** Hashes of the components this worker was asked to preload. */
  preloaded: Set<string>;
  warmKeys: string[];
  stderrTail: string;
  finish?: (outcome: WorkerOutcome) => void;
}

interface Pending {
  job: WorkerJob;
  options: RunOptions;
  resolve: (outcome: WorkerOutcome) => void;
  /** Called when the call leaves the queue for a worker. */
  dequeued: () => void;
}

/**
 * Finds the worker entry: worker.mjs beside the sources (src/runtime/), or the build's one-file
 * CommonJS bundle of it, dist/runtime/worker.cjs (scripts/bundle-workers.mjs says why CommonJS).
 */
export function defaultWorkerPath(): string {
  if (typeof import.meta.url !== 'string') {
    throw new ComponentRuntimeError(
      'bundled',
      missingAssetMessage('the component worker entry', [], undefined).message,
    );
  }
  const candidates = [new URL('./worker.mjs', import.meta.url), new URL('./runtime/worker.cjs', import.meta.url)];
  for (const candidate of candidates) {
    const path = fileURLToPath(candidate);
    if (existsSync(path)) return path;
  }
  const missing = missingAssetMessage(
    'the component worker entry (worker.mjs, built as runtime/worker.cjs)',
    candidates.map((url) => fileURLToPath(url)),
    import.meta.url,
  );
  throw new ComponentRuntimeError(missing.bundled ? 'bundled' : 'missing-file', missing.message);
}

/**
 * A small pool of worker processes that run guest calls one at a time each. A call past its
 * deadline (or aborted) gets its process SIGKILLed and answered with an error; a crash (a
 * memory bomb past `--wasm-max-mem-pages`, a fatal V8 error) likewise; the pool then forks a
 * replacement on demand. Calls go to an idle worker that already holds their warm instance when
 * there is one.
 *
 * Start-up work is spread so the first call does not compete for the CPU: {@link warm} forks
 * one worker as soon as a component starts loading and {@link preload} has it compile the
 * component before any call arrives (the message waits in the channel while the process starts);
 * further workers are forked when calls queue up, or once the pool is idle, and each compiles the
 * preloaded components too.
 */
export class WorkerPool {
  private readonly workers: PoolWorker[] = [];
  private readonly queue: Pending[] = [];
  private readonly workerPath: string;
  /** What {@link spawn} forks, worked out at the first fork. */
  private launch: WorkerLaunch | undefined;
  private closed = false;
  private nextId = 1;
  /** Calls queued or running; while above zero a timer keeps the host's event loop alive. */
  private active = 0;
  private startupFailures = 0;
  private keepAlive: NodeJS.Timeout | undefined;
  private growTimer: NodeJS.Timeout | undefined;
  /** Components every worker compiles as soon as it is ready (by hash). */
  private readonly preloads = new Map<string, ComponentRef>();
  /** How many worker processes were started (for tests and stats). */
  spawned = 0;

  constructor(private readonly options: WorkerPoolOptions) {
    this.workerPath = options.workerPath ?? defaultWorkerPath();
  }

  /** Runs a job on some worker; never rejects (failures are outcomes). */
  run(job: WorkerJob, options: RunOptions): Promise<WorkerOutcome> {
    if (this.closed) return Promise.resolve({ ok: false, kind: 'closed', message: 'The component runtime is closed.' });
    if (options.signal?.aborted) {
      return Promise.resolve({ ok: false, kind: 'aborted', message: 'The call was cancelled before it started.' });
    }
    this.track(1);
    return new Promise<WorkerOutcome>((settle) => {
      const onQueuedAbort = () => {
        const index = this.queue.indexOf(pending);
        if (index >= 0) {
          this.queue.splice(index, 1);
          pending.resolve({ ok: false, kind: 'aborted', message: 'The call was cancelled before it started.' });
        }
      };
      const pending: Pending = {
        job,
        options,
        resolve: (outcome: WorkerOutcome) => {
          options.signal?.removeEventListener('abort', onQueuedAbort);
          this.track(-1);
          settle(outcome);
        },
        dequeued: () => options.signal?.removeEventListener('abort', onQueuedAbort),
      };
      this.queue.push(pending);
      options.signal?.addEventListener('abort', onQueuedAbort, { once: true });
      this.pump();
    });
  }

  /**
   * Has every worker (present and future) load and compile `component` ahead of its first call,
   * forking the first worker now when there is none, so a call made soon after finds it warm.
   */
  preload(component: ComponentRef): void {
    if (this.closed || this.preloads.has(component.hash)) return;
    this.preloads.set(component.hash, component);
    if (this.workers.length === 0) this.spawn();
    else for (const worker of this.workers) this.sendPreload(worker, component);
  }

  /**
   * Forks the first worker now when there is none, so the process starts while the host is
   * still reading and hashing a component it is about to {@link preload}.
   */
  warm(): void {
    if (!this.closed && this.workers.length === 0) this.spawn();
  }

  /**
   * Worker processes and their channels are unref'd so an idle pool never keeps the host alive;
   * while calls are in flight this timer does.
   */
  private track(delta: number): void {
    this.active += delta;
    if (this.active > 0 && this.keepAlive === undefined) {
      this.keepAlive = setInterval(() => {}, 60_000);
    } else if (this.active === 0 && this.keepAlive !== undefined) {
      clearInterval(this.keepAlive);
      this.keepAlive = undefined;
    }
  }

  /**
   * Stops every worker and answers queued calls with a `closed` outcome. A worker in a call, starting
   * or compiling ahead is killed at once; an idle one is disconnected and exits by itself (it may be
   * writing its code cache, which it does after its first answer), killed after
   * {@link IDLE_EXIT_GRACE_MS} if it has not.
   */
  close(): void {
    this.closed = true;
    clearTimeout(this.growTimer);
    for (const pending of this.queue.splice(0)) {
      pending.resolve({ ok: false, kind: 'closed', message: 'The component runtime was closed.' });
    }
    for (const worker of this.workers.splice(0)) {
      const { child } = worker;
      if (worker.ready && !worker.busy && worker.preloading === 0 && child.connected) {
        const backstop = setTimeout(() => child.kill('SIGKILL'), IDLE_EXIT_GRACE_MS);
        backstop.unref();
        child.once('exit', () => clearTimeout(backstop));
        child.disconnect();
        continue;
      }
      worker.finish?.({ ok: false, kind: 'closed', message: 'The component runtime was closed during the call.' });
      child.kill('SIGKILL');
    }
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const idle = this.workers.filter((worker) => worker.ready && !worker.busy);
      if (idle.length === 0) {
        // One more worker unless the ones still starting will take the queued calls.
        const starting = this.workers.filter((worker) => !worker.ready).length;
        if (this.queue.length > starting && this.workers.length < this.options.workers) this.spawn();
        return;
      }
      const pending = this.queue.shift() as Pending;
      const key = pending.options.affinityKey;
      const warm = key === undefined ? undefined : idle.find((worker) => worker.warmKeys.includes(key));
      this.dispatch(warm ?? (idle[0] as PoolWorker), pending);
    }
    this.growWhenIdle();
  }

  /**
   * Forks the remaining workers one at a time once the pool has been idle for a moment: forking
   * and compiling cost 100-300 ms of CPU, which on a small machine would slow down the calls in
   * flight (a queue of calls still forks at once, see pump).
   */
  private growWhenIdle(): void {
    if (!this.canGrow() || this.growTimer !== undefined) return;
    this.growTimer = setTimeout(() => {
      this.growTimer = undefined;
      if (this.canGrow()) this.spawn();
    }, GROW_DELAY_MS);
    this.growTimer.unref();
  }

  private canGrow(): boolean {
    if (this.closed || this.preloads.size === 0 || this.workers.length >= this.options.workers) return false;
    const settling = this.workers.some((worker) => worker.busy || !worker.ready || worker.preloading > 0);
    return this.queue.length === 0 && !settling;
  }

  /** Sends a preload once per worker, ready or not (a starting worker reads it when it can). */
  private sendPreload(worker: PoolWorker, component: ComponentRef): void {
    if (worker.preloaded.has(component.hash) || !worker.child.connected) return;
    worker.preloaded.add(component.hash);
    worker.preloading++;
    worker.child.send({ type: 'preload', component }, (error) => {
      // The channel closed first: the exit handler answers for this worker.
      if (error !== null && error !== undefined) worker.preloading = Math.max(0, worker.preloading - 1);
    });
  }

  private spawn(): void {
    const pages = Math.max(1, Math.floor(this.options.maxMemoryBytes / WASM_PAGE));
    const oldSpaceMib = Math.ceil(this.options.maxMemoryBytes / MIB) + 256;
    const execArgv = [`--wasm-max-mem-pages=${pages}`, ...EXTENDED_CONST_FLAG, `--max-old-space-size=${oldSpaceMib}`];
    this.launch ??= workerLaunch(this.workerPath, execArgv, this.options.codeCacheDir);
    const child = fork(this.launch.modulePath, this.launch.args, {
      execArgv,
      env: {},
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    this.spawned++;
    const worker: PoolWorker = {
      child,
      ready: false,
      started: false,
      busy: false,
      preloading: 0,
      preloaded: new Set(),
      warmKeys: [],
      stderrTail: '',
    };
    this.workers.push(worker);
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      worker.stderrTail = (worker.stderrTail + text).slice(-STDERR_TAIL);
    });
    (child.stderr as { unref?: () => void } | null)?.unref?.();
    child.on('message', (message: { type?: string; id?: number; outcome?: WorkerOutcome }) => {
      if (message.type === 'ready') {
        worker.ready = true;
        worker.started = true;
        this.startupFailures = 0;
        this.pump();
      } else if (message.type === 'preloaded') {
        worker.preloading = Math.max(0, worker.preloading - 1);
        this.pump();
      } else if (message.type === 'result' && message.outcome !== undefined) {
        worker.finish?.(message.outcome);
      }
    });
    child.on('exit', (code, signal) => {
      const index = this.workers.indexOf(worker);
      if (index >= 0) this.workers.splice(index, 1);
      // Died (or was stopped) while compiling ahead: never preload again, or a component that
      // crashes its worker on load would have the pool fork forever. Calls still load on demand.
      if (worker.preloading > 0) this.preloads.clear();
      const detail = worker.stderrTail.trim().split('\n').slice(-3).join(' | ');
      worker.finish?.({
        ok: false,
        kind: 'crash',
        message: `The component's worker process ended (${signal ?? `exit code ${code}`})${detail ? `: ${detail}` : ''}. It may have run out of memory.`,
      });
      if (!worker.started && ++this.startupFailures >= MAX_STARTUP_FAILURES) {
        this.startupFailures = 0;
        for (const pending of this.queue.splice(0)) {
          pending.resolve({
            ok: false,
            kind: 'host',
            message: `The component worker (${this.workerPath}) fails to start: ${detail || `exit code ${code}`}`,
          });
        }
        return;
      }
      if (!this.closed) this.pump();
    });
    child.on('error', () => {
      // 'exit' follows and answers the call.
    });
    for (const component of this.preloads.values()) this.sendPreload(worker, component);
  }

  private dispatch(worker: PoolWorker, pending: Pending): void {
    pending.dequeued();
    worker.busy = true;
    const id = this.nextId++;
    const key = pending.options.affinityKey;
    if (key !== undefined) {
      worker.warmKeys = [...worker.warmKeys.filter((existing) => existing !== key), key].slice(-WARM_KEYS_TRACKED);
    }
    const kill = (outcome: WorkerOutcome) => {
      worker.ready = false;
      finish(outcome);
      worker.child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () =>
        kill({
          ok: false,
          kind: 'timeout',
          message: `The call ran past its ${pending.options.timeoutMs} ms deadline and was stopped.`,
        }),
      pending.options.timeoutMs,
    );
    const onAbort = () => kill({ ok: false, kind: 'aborted', message: 'The call was cancelled.' });
    pending.options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (outcome: WorkerOutcome) => {
      if (worker.finish === undefined) return;
      worker.finish = undefined;
      clearTimeout(timer);
      pending.options.signal?.removeEventListener('abort', onAbort);
      worker.busy = false;
      if (!outcome.ok && (outcome.kind === 'trap' || outcome.kind === 'exit') && key !== undefined) {
        worker.warmKeys = worker.warmKeys.filter((existing) => existing !== key);
      }
      pending.resolve(outcome);
      queueMicrotask(() => this.pump());
    };
    worker.finish = finish;
    worker.child.send({ type: 'call', id, job: pending.job });
  }
}
