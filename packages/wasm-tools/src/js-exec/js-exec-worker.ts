// Worker-thread entry of js_exec: QuickJS runs off the host's thread, so a synchronous loop can
// be stopped by terminating the thread, whatever the engine's own interrupt handler manages.
import { serveThreadTasks } from '../thread-pool/serve-tasks.js';
import type { JsExecTask } from './js-exec-thread.js';
import { type JsRun, QuickJsEngine } from './quickjs-engine.js';

/** One engine per set of limits, reused across calls on this thread (each call gets a fresh context). */
const engines = new Map<string, QuickJsEngine>();

serveThreadTasks<JsExecTask, JsRun>(async (task, signal) => {
  const key = JSON.stringify(task.limits);
  let engine = engines.get(key);
  if (engine === undefined) {
    engine = new QuickJsEngine(task.limits);
    engines.set(key, engine);
  }
  try {
    return await engine.run(task.code, signal);
  } catch (error) {
    engine.reset();
    throw error;
  }
});
