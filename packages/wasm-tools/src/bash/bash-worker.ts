// Worker-thread entry of the simulated shell: runs just-bash off the host's thread, so a
// CPU-bound command can be stopped at its deadline by terminating the thread.
import { serveThreadTasks } from '../thread-pool/serve-tasks.js';
import { runSimulated } from './simulated-shell.js';
import type { SimulatedShellTask } from './simulated-thread.js';

serveThreadTasks<SimulatedShellTask, Awaited<ReturnType<typeof runSimulated>>>((task, signal) =>
  runSimulated(task.command, task.timeoutMs, task.settings, {
    root: task.root,
    signal,
    sessionId: '',
    turnId: '',
    toolCallId: '',
    ...(task.allowedHosts === undefined ? {} : { allowedHosts: task.allowedHosts }),
  }),
);
