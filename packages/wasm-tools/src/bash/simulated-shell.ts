import type { ToolContext } from '@boxagnts/tools';
import {
  Bash,
  decodeBytesToUtf8,
  InMemoryFs,
  MountableFs,
  ReadWriteFs,
  stdoutKind,
  unsafeBytesFromLatin1,
} from 'just-bash';
import { createPathPolicy } from '../policy/path-policy.js';
import { capText } from './head-tail-buffer.js';
import { type BashNetworkAccess, toNetworkConfig } from './network-config.js';
import { ProtectedFs } from './protected-fs.js';
import type { ShellRun } from './shell-run.js';

/** Settings of the simulated shell that stay the same for every call of one tool. */
export interface SimulatedShellSettings {
  protectedPaths?: readonly string[];
  network?: BashNetworkAccess;
  allowPrivateNetwork: boolean;
  env: Readonly<Record<string, string>>;
  maxOutputBytes: number;
}

/** The most bytes the shell may produce in one call before just-bash stops it (a memory bound, not the shown cap). */
const MAX_RAW_OUTPUT_BYTES = 10 * 1024 * 1024;
/** Largest file a command may read, in bytes. */
const MAX_FILE_READ_BYTES = 10 * 1024 * 1024;
/** Most bytes the in-memory scratch filesystem (`/tmp` and everything outside the root) may hold. */
const MAX_SCRATCH_BYTES = 64 * 1024 * 1024;

/**
 * just-bash's `normal` profile (100 000 loop iterations, so `seq 1 50000` works; the `hardened`
 * profile stops at 10 000) with the command count and the memory-heavy limits brought down to
 * what one agent call needs: a runaway `while true` stops after 20 000 commands (about a second).
 */
const EXECUTION_LIMITS = {
  maxCommandCount: 20_000,
  maxOutputSize: MAX_RAW_OUTPUT_BYTES,
  maxStringLength: 16 * 1024 * 1024,
  maxHeredocSize: 16 * 1024 * 1024,
  maxLiveBytes: 128 * 1024 * 1024,
  maxInputBytes: 64 * 1024 * 1024,
  maxSourceBytes: 1024 * 1024,
} as const;

/**
 * Builds a fresh simulated shell for one call: the working root mounted at its own host path
 * (real and as given) behind the path policy, an empty in-memory filesystem everywhere else
 * (so `/tmp` is scratch space that disappears after the call), no host processes, no Python or
 * JavaScript runtimes, and network only as configured.
 */
function createShell(timeoutMs: number, settings: SimulatedShellSettings, context: ToolContext): Bash {
  const policy = createPathPolicy({
    root: context.root,
    ...(settings.protectedPaths === undefined ? {} : { protectedPaths: settings.protectedPaths }),
  });
  const rootFs = new ProtectedFs(new ReadWriteFs({ root: policy.root, maxFileReadSize: MAX_FILE_READ_BYTES }), policy);
  const base = new InMemoryFs({}, { maxTotalBytes: MAX_SCRATCH_BYTES });
  base.mkdirSync('/tmp', { recursive: true });
  base.writeFileSync('/dev/null', '');
  const fs = new MountableFs({ base });
  fs.mount(policy.root, rootFs);
  if (policy.requestedRoot !== policy.root) fs.mount(policy.requestedRoot, rootFs);
  const network = toNetworkConfig(settings.network, context.allowedHosts, settings.allowPrivateNetwork);
  return new Bash({
    fs,
    cwd: policy.requestedRoot,
    env: { HOME: policy.requestedRoot, USER: 'user', LANG: 'C.UTF-8', ...settings.env },
    executionLimitProfile: 'normal',
    executionLimits: { ...EXECUTION_LIMITS, maxExecutionTimeMs: timeoutMs },
    python: false,
    javascript: false,
    ...(network === undefined ? {} : { network }),
  });
}

/**
 * Runs `command` in a fresh simulated shell confined to `context.root`, stopped by the timeout or
 * the context's signal. Never throws: a shell that cannot start is a `failed` run.
 */
export async function runSimulated(
  command: string,
  timeoutMs: number,
  settings: SimulatedShellSettings,
  context: ToolContext,
): Promise<ShellRun> {
  const started = Date.now();
  const finish = (partial: Omit<ShellRun, 'durationMs' | 'truncated'> & { truncated?: boolean }): ShellRun => ({
    truncated: false,
    ...partial,
    durationMs: Date.now() - started,
  });
  if (context.signal.aborted) return finish({ stdout: '', stderr: '', exitCode: null, outcome: 'aborted' });
  let shell: Bash;
  try {
    shell = createShell(timeoutMs, settings, context);
  } catch (error) {
    const failure = error instanceof Error ? error.message : String(error);
    return finish({ stdout: '', stderr: '', exitCode: null, outcome: 'failed', failure });
  }
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timeout'));
  }, timeoutMs);
  const onAbort = () => controller.abort(context.signal.reason);
  context.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await shell.exec(command, { signal: controller.signal, rawScript: true });
    const stdoutText =
      stdoutKind(result) === 'bytes' ? decodeBytesToUtf8(unsafeBytesFromLatin1(result.stdout)) : result.stdout;
    const stdout = capText(stdoutText, settings.maxOutputBytes / 2);
    const stderr = capText(result.stderr, settings.maxOutputBytes / 2);
    const stopped = context.signal.aborted
      ? 'aborted'
      : timedOut || Date.now() - started >= timeoutMs
        ? 'timed-out'
        : undefined;
    return finish({
      stdout: stdout.text,
      stderr: stderr.text,
      exitCode: stopped === undefined ? result.exitCode : null,
      outcome: stopped ?? 'exited',
      truncated: stdout.truncated || stderr.truncated,
    });
  } catch (error) {
    const failure = error instanceof Error ? error.message : String(error);
    const stopped = context.signal.aborted ? 'aborted' : timedOut ? 'timed-out' : 'failed';
    return finish({ stdout: '', stderr: '', exitCode: null, outcome: stopped, failure });
  } finally {
    clearTimeout(timer);
    context.signal.removeEventListener('abort', onAbort);
  }
}
