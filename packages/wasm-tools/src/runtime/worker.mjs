// The worker process of the component runtime: forked by the host's pool (worker-pool.ts) with
// `--wasm-max-mem-pages`, `--max-old-space-size` and, on Node 20 only (later majors refuse it as
// a bad option), `--experimental-wasm-extended-const`, it
// runs one guest call at a time and answers over IPC. It is plain JavaScript on purpose: a forked
// child cannot import TypeScript, and the same file runs from the sources and from the published
// package. The host kills it on a deadline; a memory bomb or a crash ends only this process.
//
// Start-up order matters for the first call: this entry imports only the component loader, so a
// preload that the host sent right after forking starts reading and compiling the component's
// core modules (on V8's background threads) while the job code below is still being imported.
import { loadComponent, preloadComponent } from './worker-component-loader.mjs';

// When the job code is imported. In the built one-file worker (scripts/bundle-workers.mjs) the
// import is one synchronous block of work on the main thread; run first, it held back every step
// of the preload (file reads, the glue's evaluation, the compile calls) until it ended. So when a
// preload waits in the channel (the host sends it right after the fork, and the event loop's poll
// phase reads it before the check phase below), the import starts once that component's glue is
// evaluated and its core modules are compiling on V8's background threads. Without one, it
// starts at the first check phase.
let startJobs = () => {};
const jobsStart = new Promise((resolve) => {
  startJobs = resolve;
});
let preloadSeen = false;
setImmediate(() => {
  if (!preloadSeen) startJobs();
});
const jobs = jobsStart.then(() => import('./worker-jobs.mjs'));

/** Set by worker-cached-entry.cjs: writes the worker bundle's code cache. */
const SAVE_WORKER_CODE_CACHE = Symbol.for('boxagnts.worker.saveCodeCache');

let queue = Promise.resolve();
process.on('message', (message) => {
  if (message?.type === 'preload') {
    // Started at once; answered in the call queue, so a call queued behind it finds it compiled.
    const loading = preloadComponent(message.component);
    if (!preloadSeen) {
      preloadSeen = true;
      loadComponent(message.component).then(startJobs, startJobs);
    }
    queue = queue.then(async () => {
      await loading;
      process.send({ type: 'preloaded' });
    });
    return;
  }
  if (message?.type !== 'call') return;
  queue = queue.then(async () => {
    const outcome = await (await jobs).handle(message.job);
    await new Promise((resolve) => process.send({ type: 'result', id: message.id, outcome }, resolve));
    // Started by worker-cached-entry.cjs (the built worker with a cache folder): write the
    // bundle's V8 code cache once the first call has compiled what it needs (a no-op after).
    globalThis[SAVE_WORKER_CODE_CACHE]?.();
  });
});
process.on('disconnect', () => process.exit(0));
// Ready once the job code is loaded; a worker that cannot load it dies before ready, which the
// pool counts as a failed start.
jobs.then(
  () => process.send({ type: 'ready' }),
  (error) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
