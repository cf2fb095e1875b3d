// A worker for the thread pool's own tests: each task names what the worker should do.
import { serveThreadTasks } from './serve-tasks.js';

/** What a fixture task asks the worker to do. */
export type FixtureTask =
  | { op: 'echo'; value: unknown }
  | { op: 'spin' }
  | { op: 'busy'; ms: number; value: unknown }
  | { op: 'allocate' }
  | { op: 'throw'; message: string }
  | { op: 'exit' }
  | { op: 'wait-for-cancel' }
  | { op: 'env' }
  | { op: 'thread-id' }
  | { op: 'print'; times: number };

const kept: unknown[] = [];

serveThreadTasks<FixtureTask, unknown>(async (task, signal) => {
  switch (task.op) {
    case 'echo':
      return task.value;
    case 'spin':
      for (;;) kept.length = 0;
    case 'busy': {
      // Holds the thread for `ms` (a synchronous wait, as a guest's loop would), then answers.
      const until = Date.now() + task.ms;
      while (Date.now() < until) kept.length = 0;
      return task.value;
    }
    case 'allocate':
      for (;;) kept.push(Array.from({ length: 1000 }, (_, index) => ({ index, text: `item ${index}` })));
    case 'throw':
      throw new Error(task.message);
    case 'exit':
      process.exit(3);
      break;
    case 'wait-for-cancel':
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve('stopped cleanly')));
    case 'env':
      return Object.keys(process.env).length;
    case 'print':
      for (let index = 0; index < task.times; index++) {
        console.log('noise '.repeat(100));
        process.stdout.write('more noise\n');
        process.stderr.write('error noise\n');
      }
      return 'printed';
    case 'thread-id': {
      const { threadId } = await import('node:worker_threads');
      return threadId;
    }
  }
});
