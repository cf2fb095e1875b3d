// Worker-thread entry of js_exec: QuickJS runs off the host's thread, so a synchronous loop can
// be stopped by terminating the thread, whatever the engine's own interrupt handler manages.
import { serveThreadTasks } from '../thread-pool/serve-tasks.js';
import type { JsExecTask } from './js-exec-thread.js';
import { type JsRun, QuickJsEngine } from './quickjs-engine.js';

/**
 * One engine per set of limits, reused across calls on this thread (each call gets a fresh
 * context); the least recently used is dropped past {@link MAX_ENGINES}, so tools with many
 * different limits cannot pile up WebAssembly memories on one thread.
 */
const engines = new Map<string, QuickJsEngine>();
const MAX_ENGINES = 4;

// The engine's build (compiling QuickJS, after an out-of-memory or a fresh thread) is not the
// call's time: the host's deadline starts when the evaluation does.
serveThreadTasks<JsExecTask, JsRun>(
  async (task, signal, running) => {
    const key = JSON.stringify(task.limits);
    let engine = engines.get(key);
    if (engine === undefined) {
      engine = new QuickJsEngine(task.limits);
      const oldest = engines.size >= MAX_ENGINES ? engines.keys().next().value : undefined;
      if (oldest !== undefined) {
        engines.get(oldest)?.reset();
        engines.delete(oldest);
      }
    } else {
      engines.delete(key);
    }
    engines.set(key, engine);
    try {
      return await engine.run(task.code, signal, running);
    } catch (error) {
      engine.reset();
      throw error;
    }
  },
  { reportsRunning: true },
);
