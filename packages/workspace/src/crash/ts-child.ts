import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How a child ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A TypeScript child process run under tsx, read line by line. */
export interface TsChild {
  readonly process: ChildProcess;
  /** Every stdout line so far. */
  readonly lines: readonly string[];
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Resolves with the first line (already seen or still to come) that passes `test`. */
  waitForLine(test: (line: string) => boolean, description: string): Promise<string>;
  /** Writes one line to the child's stdin. */
  send(line: string): void;
  /** Sends SIGKILL and resolves once the process is gone. */
  kill(): Promise<ChildExit>;
  readonly exited: Promise<ChildExit>;
}

/** The package folder: children run there so `tsx` and the workspace packages resolve. */
export const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** How long a child may take to print an awaited line (tsx transpiles the sources on start). */
const LINE_TIMEOUT_MS = 30_000;

/** Timeout of a test that starts children: each start transpiles the sources, seconds on a busy machine. */
export const CHILD_TEST_TIMEOUT_MS = 60_000;

/**
 * Starts `file` (a path relative to this folder) as a child process: Node with the source
 * condition and tsx, so it runs the workspace packages from their sources like the tests do.
 */
export function spawnTsChild(file: string, args: readonly string[]): TsChild {
  const child = spawn(
    process.execPath,
    ['--conditions=@boxagnts/source', '--import', 'tsx', join(dirname(fileURLToPath(import.meta.url)), file), ...args],
    { cwd: PACKAGE_DIR, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const lines: string[] = [];
  let errors = '';
  let partial = '';
  const waiters: Array<{ test: (line: string) => boolean; resolve: (line: string) => void }> = [];
  const exited = new Promise<ChildExit>((resolve) => {
    // 'close' comes after the last stdout bytes were read, so `lines` is complete then.
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (!waiter.test(line)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    errors += chunk;
  });
  return {
    process: child,
    lines,
    stderr: () => errors,
    exited,
    waitForLine(test, description) {
      const seen = lines.find(test);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => fail(`no line ${description} within ${LINE_TIMEOUT_MS} ms`), LINE_TIMEOUT_MS);
        const fail = (why: string) => {
          clearTimeout(timer);
          reject(new Error(`${why}; stdout:\n${lines.join('\n')}\nstderr:\n${errors}`));
        };
        waiters.push({
          test,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
        void exited.then((exit) => fail(`the child exited (${exit.code ?? exit.signal}) before a line ${description}`));
      });
    },
    send(line) {
      child.stdin?.write(`${line}\n`);
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      return exited;
    },
  };
}
