import type { ToolContext } from '@boxagnts/tools';
import { heapCappedPools } from '../thread-pool/heap-capped-pools.js';
import { resolveWorkerScript } from '../thread-pool/worker-script.js';
import type { ShellRun } from './shell-run.js';
import type { SimulatedShellSettings } from './simulated-shell.js';

/** One simulated-shell call as sent to its worker thread (plain data). */
export interface SimulatedShellTask {
  command: string;
  timeoutMs: number;
  settings: SimulatedShellSettings;
  root: string;
  allowedHosts?: readonly string[];
}

/**
 * Time the shell gets past its own deadline to stop and report (just-bash stops `sleep`, loops
 * between commands and I/O itself) before its worker thread is terminated, in milliseconds.
 */
export const BASH_KILL_GRACE_MS = 500;

/** The process-wide pools of shell threads, one per heap cap. */
const poolFor = heapCappedPools(() => resolveWorkerScript(import.meta.url, 'bash', 'bash-worker'));

/**
 * Runs a simulated-shell call on a pooled worker thread: the host's event loop keeps running
 * whatever the command does; at `timeoutMs` the shell stops itself, and if it has not answered
 * {@link BASH_KILL_GRACE_MS} later (a CPU-bound `awk` or `sed` loop) its thread is terminated.
 * A call that exceeds `maxMemoryBytes` of heap kills only its thread. Never throws.
 */
export async function runSimulatedInThread(
  command: string,
  timeoutMs: number,
  settings: SimulatedShellSettings & { maxMemoryBytes: number; startTimeoutMs: number },
  context: ToolContext,
): Promise<ShellRun> {
  const started = Date.now();
  const { maxMemoryBytes, startTimeoutMs, ...shellSettings } = settings;
  const task: SimulatedShellTask = {
    command,
    timeoutMs,
    settings: shellSettings,
    root: context.root,
    ...(context.allowedHosts === undefined ? {} : { allowedHosts: [...context.allowedHosts] }),
  };
  const outcome = await poolFor(maxMemoryBytes).run<ShellRun>(task, {
    deadlineMs: timeoutMs + BASH_KILL_GRACE_MS,
    signal: context.signal,
    graceMs: BASH_KILL_GRACE_MS,
    startTimeoutMs,
  });
  const stopped = (partial: Pick<ShellRun, 'outcome'> & { failure?: string }): ShellRun => ({
    stdout: '',
    stderr: '',
    exitCode: null,
    truncated: false,
    durationMs: Date.now() - started,
    ...partial,
  });
  switch (outcome.status) {
    case 'ok':
      return outcome.value;
    case 'timed-out':
      return stopped({ outcome: outcome.stage === 'start' ? 'busy' : 'timed-out' });
    case 'aborted':
      return stopped({ outcome: 'aborted' });
    case 'out-of-memory':
      return stopped({ outcome: 'out-of-memory', failure: `a cap of ${Math.round(maxMemoryBytes / 1048576)} MiB` });
    case 'error':
    case 'crashed':
      return stopped({ outcome: 'failed', failure: outcome.message });
  }
}
