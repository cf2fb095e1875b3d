// A worker for the thread pool's tests that is slow to start (as a cold thread on a loaded host
// is) and reports itself when a task's own work begins, after a preparation of its own.
import { serveThreadTasks } from './serve-tasks.js';

/** What a task of this fixture asks: prepare for `prepareMs`, then say running, then echo or spin. */
export interface SlowFixtureTask {
  prepareMs: number;
  then: 'echo' | 'spin';
  value?: unknown;
}

/** How long the thread takes to start, before it serves any task, in ms. */
export const SLOW_FIXTURE_START_MS = 1_000;

function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

busy(SLOW_FIXTURE_START_MS);

serveThreadTasks<SlowFixtureTask, unknown>(
  (task, _signal, running) => {
    busy(task.prepareMs);
    running();
    if (task.then === 'spin') for (;;);
    return task.value;
  },
  { reportsRunning: true },
);
