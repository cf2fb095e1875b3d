import { spawn } from 'node:child_process';

/** Most bytes kept of a command hook's stdout and of its stderr; the rest is dropped. */
export const HOOK_OUTPUT_LIMIT_BYTES = 1024 * 1024;

/** How long to wait for the pipes to close after the group was killed. */
const STOP_GRACE_MS = 1_000;

/** Options of {@link spawnHookCommand}. */
export interface SpawnHookCommandOptions {
  command: string;
  /** Written to the command's stdin, which is then closed. */
  stdin: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Stops the command (the whole process group) when aborted. */
  signal?: AbortSignal;
  maxOutputBytes?: number;
}

/** How a command hook's process ended and what it printed. */
export interface HookCommandOutcome {
  /** Exit status, or null when a signal ended it. */
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  timedOut: boolean;
  aborted: boolean;
  /** Set when the process could not be started (bad cwd, no /bin/sh). */
  spawnError?: string;
}

class OutputCollector {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly limit: number) {}
  add(chunk: Buffer): void {
    if (this.size >= this.limit) {
      this.truncated = true;
      return;
    }
    const room = this.limit - this.size;
    if (chunk.length > room) this.truncated = true;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone (ESRCH): nothing left to stop.
  }
}

/**
 * Runs a hook command as `/bin/sh -c <command>` in its own process group, with the event on stdin
 * and bounded output. On a timeout or an abort the whole group is killed with SIGKILL, so
 * grandchildren die too; when the shell exits, whatever it left running in its group is killed as
 * well (a hook cannot leave processes behind unless it leaves its group, e.g. with `setsid`).
 * Never throws: a start failure is reported in `spawnError`.
 */
export function spawnHookCommand(options: SpawnHookCommandOptions): Promise<HookCommandOutcome> {
  const limit = options.maxOutputBytes ?? HOOK_OUTPUT_LIMIT_BYTES;
  const stdout = new OutputCollector(limit);
  const stderr = new OutputCollector(limit);
  return new Promise((resolve) => {
    let timedOut = false;
    let aborted = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let settled = false;
    let grace: ReturnType<typeof setTimeout> | undefined;
    const child = spawn('/bin/sh', ['-c', options.command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const finish = (spawnError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      options.signal?.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({
        exitCode,
        exitSignal,
        stdout: stdout.text(),
        stderr: stderr.text(),
        stdoutTruncated: stdout.truncated,
        stderrTruncated: stderr.truncated,
        timedOut,
        aborted,
        ...(spawnError === undefined ? {} : { spawnError }),
      });
    };
    const stop = () => {
      killGroup(child.pid);
      // Normally 'close' follows at once; a process that left the group may still hold the pipes,
      // so stop waiting for them after a short grace.
      grace ??= setTimeout(() => finish(), STOP_GRACE_MS);
    };
    const onAbort = () => {
      aborted = true;
      stop();
    };
    const timer = setTimeout(() => {
      timedOut = exitCode === null && exitSignal === null;
      stop();
    }, options.timeoutMs);
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => finish(error.message));
    child.stdout?.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.add(chunk));
    child.on('exit', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      killGroup(child.pid);
    });
    child.on('close', () => finish());
    child.stdin?.on('error', () => {
      // The command exited without reading all of stdin (EPIPE): what it printed still counts.
    });
    child.stdin?.end(options.stdin);
  });
}
