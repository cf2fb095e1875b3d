import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';
import type { ToolContext } from '@boxagnts/tools';
import { HeadTailBuffer } from './head-tail-buffer.js';
import type { ShellRun } from './shell-run.js';

/** Settings of the host shell that stay the same for every call of one tool. */
export interface HostShellSettings {
  /** Extra environment variables, on top of the scrubbed base. */
  env: Readonly<Record<string, string>>;
  maxOutputBytes: number;
  /** The shell binary; `/bin/bash` by default. */
  shellPath?: string;
}

/** How long to wait for the output pipes to close after the process group was killed. */
const PIPE_CLOSE_GRACE_MS = 500;

/**
 * The environment of a host command: only `PATH`, `HOME`, `LANG` and `TERM` from the host (so
 * API keys and tokens in the host's environment never reach the command), then `extra`.
 */
export function hostShellEnvironment(extra: Readonly<Record<string, string>>): Record<string, string> {
  const host = process.env;
  return {
    PATH: host.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: host.HOME ?? '/',
    LANG: host.LANG ?? 'C.UTF-8',
    TERM: host.TERM ?? 'dumb',
    ...extra,
  };
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

function waitForClose(stream: Readable, graceMs: number): Promise<void> {
  if (stream.closed || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stream.destroy();
      resolve();
    }, graceMs);
    stream.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Runs `command` with the real `/bin/bash -c` in `context.root`, in its own process group, with a
 * scrubbed environment and capped output. On timeout or abort the whole group gets SIGKILL; when
 * the shell exits, whatever it left running in its group (background jobs) is killed too, so no
 * process outlives the call. Never throws.
 */
export function runHost(
  command: string,
  timeoutMs: number,
  settings: HostShellSettings,
  context: ToolContext,
): Promise<ShellRun> {
  const started = Date.now();
  const stdout = new HeadTailBuffer(settings.maxOutputBytes / 2);
  const stderr = new HeadTailBuffer(settings.maxOutputBytes / 2);
  const finish = (partial: Pick<ShellRun, 'exitCode' | 'outcome'> & { failure?: string }): ShellRun => ({
    stdout: stdout.toString(),
    stderr: stderr.toString(),
    truncated: stdout.truncated || stderr.truncated,
    durationMs: Date.now() - started,
    ...partial,
  });
  if (context.signal.aborted) return Promise.resolve(finish({ exitCode: null, outcome: 'aborted' }));

  return new Promise<ShellRun>((resolve) => {
    let stopped: 'timed-out' | 'aborted' | undefined;
    const child = spawn(settings.shellPath ?? '/bin/bash', ['-c', command], {
      cwd: context.root,
      detached: true,
      env: hostShellEnvironment(settings.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stop = (reason: 'timed-out' | 'aborted') => {
      stopped ??= reason;
      killGroup(child.pid);
    };
    const timer = setTimeout(() => stop('timed-out'), timeoutMs);
    const onAbort = () => stop('aborted');
    context.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => stdout.write(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.write(chunk));

    let settled = false;
    const settle = async (partial: Pick<ShellRun, 'exitCode' | 'outcome'> & { failure?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      context.signal.removeEventListener('abort', onAbort);
      killGroup(child.pid);
      await Promise.all([
        waitForClose(child.stdout, PIPE_CLOSE_GRACE_MS),
        waitForClose(child.stderr, PIPE_CLOSE_GRACE_MS),
      ]);
      resolve(finish(partial));
    };
    child.once('error', (error) => {
      void settle({ exitCode: null, outcome: 'failed', failure: error.message });
    });
    child.once('exit', (code, signal) => {
      if (stopped !== undefined) {
        void settle({ exitCode: null, outcome: stopped });
        return;
      }
      const signalled = signal === null ? null : 128 + (constants.signals[signal] ?? 0);
      void settle({ exitCode: code ?? signalled, outcome: 'exited' });
    });
  });
}
