import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { cliBundle } from './cli-bundle.js';

const here = dirname(fileURLToPath(import.meta.url));

/** What one run of the bin printed, and its exit code. */
export interface BinResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** How to run the bin: extra environment, stdout closed at once (a reader that went away), a stdout watcher. */
export interface RunBinOptions {
  env?: Record<string, string>;
  closeStdout?: boolean;
  onStdout?: (text: string, child: ChildProcess) => void;
}

/**
 * Runs the real `boxagnts` entry (its sources, bundled once per test process: see `cliBundle`) as a child
 * process, with no vendor key from the developer's environment, and resolves when it has exited.
 */
export async function runBin(args: readonly string[], options: RunBinOptions = {}): Promise<BinResult> {
  const entry = await cliBundle();
  const child = spawn(process.execPath, ['--conditions=@boxagnts/source', entry, ...args], {
    cwd: join(here, '..', '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', ...options.env },
  });
  let stdout = '';
  let stderr = '';
  if (options.closeStdout === true) child.stdout.destroy();
  else {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      options.onStdout?.(stdout, child);
    });
  }
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** Clean-ups a test registers; after each test they run, last first. */
export function cleanupsAfterEach(): (() => Promise<void>)[] {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return cleanups;
}
