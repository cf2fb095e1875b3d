import { defineTool } from '@boxagnts/tools';
import { z } from 'zod';
import { THREAD_START_TIMEOUT_MS } from '../thread-pool/thread-pool.js';
import { formatShellResult } from './format-shell-result.js';
import { runHost } from './host-shell.js';
import type { BashNetworkAccess } from './network-config.js';
import { runSimulatedInThread } from './simulated-thread.js';

/** Default time one command may run, in milliseconds (2 minutes). */
export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
/** Default longest time a call may ask for with `timeout`, in milliseconds (10 minutes). */
export const BASH_MAX_TIMEOUT_MS = 600_000;
/** Default budget of output shown to the model, in bytes (head and tail kept). */
export const BASH_MAX_OUTPUT_BYTES = 30_000;
/** Default heap cap of the simulated shell's worker thread, in bytes (512 MiB). */
export const BASH_DEFAULT_MAX_MEMORY_BYTES = 512 * 1024 * 1024;

/** Options of {@link createBashTool}. */
export interface BashToolOptions {
  /**
   * `simulated` (default): just-bash, an in-process bash confined to the working root. `host`:
   * the real `/bin/bash` on the host, for trusted setups only (see the README's risks).
   */
  mode?: 'simulated' | 'host';
  /** Paths relative to the root the simulated shell may not write; default: the path policy's defaults. */
  protectedPaths?: readonly string[];
  /**
   * Network for the simulated shell's `curl`: `false` (default) none; `true` the call's
   * `allowedHosts`; or a list of allowed URL prefixes. GET and HEAD only.
   */
  allowNetwork?: BashNetworkAccess;
  /** Let allowed URLs reach loopback and private addresses (default false, also after DNS resolution). */
  allowPrivateNetwork?: boolean;
  /** Time a command may run when the call gives no `timeout`, in ms. Default {@link BASH_DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Cap on a call's `timeout`, in ms. Default the larger of {@link BASH_MAX_TIMEOUT_MS} and `timeoutMs`. */
  maxTimeoutMs?: number;
  /** Output shown to the model, in bytes; stdout and stderr get half each. Default {@link BASH_MAX_OUTPUT_BYTES}. */
  maxOutputBytes?: number;
  /** Extra environment variables for every command. */
  env?: Readonly<Record<string, string>>;
  /**
   * Heap cap of the worker thread the simulated shell runs in, in bytes; a command past it is
   * stopped with an error result. Default {@link BASH_DEFAULT_MAX_MEMORY_BYTES}.
   */
  maxMemoryBytes?: number;
  /**
   * Simulated mode: time a command may wait for a free shell thread (and for a new one to start)
   * before it ends as `busy` without running, in ms. Default {@link THREAD_START_TIMEOUT_MS} (60 s).
   */
  startTimeoutMs?: number;
}

/** A bash tool configuration that cannot work; the message says what to change. */
export class BashToolConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BashToolConfigError';
  }
}

const inputSchema = z.object({
  command: z.string().min(1, 'Give the command to run.').describe('The bash command to run.'),
  timeout: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Longest time the command may run, in milliseconds; capped by the tool. Default 120000 (2 minutes).'),
  description: z
    .string()
    .max(300)
    .optional()
    .describe('What the command does, in 5-10 words (shown to the user, e.g. "List files in src").'),
});

const SIMULATED_DESCRIPTION = [
  'Run a bash command in a simulated shell confined to the working folder.',
  'Supports bash syntax (pipes, redirection, &&, loops, functions, variables, globs) and common Unix tools:',
  'ls, cat, head, tail, grep, rg, sed, awk, find, sort, uniq, wc, cut, tr, xargs, diff, jq, yq, tar, gzip, sqlite3 and more.',
  'It cannot run other programs (no git, node, python, package managers) and has no network unless configured.',
  'The working folder appears at its usual path; everything outside it is an empty scratch filesystem (/tmp)',
  'that is discarded after the call. Each call starts a fresh shell: variables and `cd` do not carry over; files',
  'written in the working folder do. Protected paths such as .git are read-only. Loops and output are limited.',
  'The result shows stdout, stderr and the exit code; a non-zero exit code is reported, not treated as a failure.',
].join(' ');

const HOST_DESCRIPTION = [
  'Run a bash command with the real /bin/bash on this machine, in the working folder.',
  'The environment holds only PATH, HOME, LANG, TERM and configured variables.',
  'Background processes are killed when the command ends; use a timeout for long commands.',
  'The result shows stdout, stderr and the exit code; a non-zero exit code is reported, not treated as a failure.',
].join(' ');

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new BashToolConfigError(
      `bash option "${name}" must be a positive number of ${name.endsWith('Bytes') ? 'bytes' : 'milliseconds'}; got ${value}.`,
    );
  }
  return value;
}

/**
 * Creates the `bash` tool: by default a simulated shell (just-bash) that works on the files of
 * the call's root, cannot start host processes, cannot write protected paths and has no network;
 * optionally the real host shell for trusted setups.
 *
 * @example
 * const bash = createBashTool();
 * const result = await bash.execute({ command: 'ls | wc -l' }, context);
 *
 * @throws {BashToolConfigError} for a bad number, or simulated-only options given with `mode: 'host'`.
 */
export function createBashTool(options: BashToolOptions = {}) {
  const mode = options.mode ?? 'simulated';
  if (mode !== 'simulated' && mode !== 'host') {
    throw new BashToolConfigError(`bash option "mode" must be "simulated" or "host"; got ${JSON.stringify(mode)}.`);
  }
  if (mode === 'host' && (options.protectedPaths !== undefined || options.allowNetwork !== undefined)) {
    throw new BashToolConfigError(
      'bash options "protectedPaths" and "allowNetwork" apply only to the simulated shell; the host shell cannot enforce them. Remove them, or use mode "simulated".',
    );
  }
  const defaultTimeoutMs = positive('timeoutMs', options.timeoutMs, BASH_DEFAULT_TIMEOUT_MS);
  const maxTimeoutMs = positive('maxTimeoutMs', options.maxTimeoutMs, Math.max(BASH_MAX_TIMEOUT_MS, defaultTimeoutMs));
  const maxOutputBytes = positive('maxOutputBytes', options.maxOutputBytes, BASH_MAX_OUTPUT_BYTES);
  const maxMemoryBytes = positive('maxMemoryBytes', options.maxMemoryBytes, BASH_DEFAULT_MAX_MEMORY_BYTES);
  const startTimeoutMs = positive('startTimeoutMs', options.startTimeoutMs, THREAD_START_TIMEOUT_MS);
  const env = { ...(options.env ?? {}) };

  return defineTool({
    name: 'bash',
    description: mode === 'simulated' ? SIMULATED_DESCRIPTION : HOST_DESCRIPTION,
    inputSchema,
    permission: 'execute',
    execute: async ({ command, timeout, description }, context) => {
      const timeoutMs = Math.min(timeout ?? defaultTimeoutMs, maxTimeoutMs);
      const run =
        mode === 'simulated'
          ? await runSimulatedInThread(
              command,
              timeoutMs,
              {
                ...(options.protectedPaths === undefined ? {} : { protectedPaths: options.protectedPaths }),
                ...(options.allowNetwork === undefined ? {} : { network: options.allowNetwork }),
                allowPrivateNetwork: options.allowPrivateNetwork ?? false,
                env,
                maxOutputBytes,
                maxMemoryBytes,
                startTimeoutMs,
              },
              context,
            )
          : await runHost(command, timeoutMs, { env, maxOutputBytes }, context);
      return formatShellResult(run, {
        mode,
        timeoutMs,
        startTimeoutMs,
        ...(description === undefined ? {} : { description }),
      });
    },
  });
}
