import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiPackageDir } from './package-dir.js';

/** A bench server (the testkit's mock server, or the paced proxy) in a child process, so its CPU is not the client's. */
export interface MockServerProcess {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  pid: number | undefined;
  close(): Promise<void>;
  /** Synchronous stop, for `process.on('exit')`. */
  kill(): void;
}

/** The testkit's CLI source file, found through the package (a devDependency of @boxagnts/api). */
function testkitCli(): string {
  const manifest = fileURLToPath(import.meta.resolve('@boxagnts/testkit/package.json'));
  return join(dirname(manifest), 'src', 'cli.ts');
}

/**
 * Starts `boxagnts-mock --script <file>` from the testkit's sources (through tsx) in a child process
 * and resolves once it prints its URL.
 */
export async function startMockServerProcess(script: unknown): Promise<MockServerProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-bench-'));
  const scriptPath = join(dir, 'script.json');
  await writeFile(scriptPath, JSON.stringify(script));
  const child = spawn(
    process.execPath,
    [
      '--conditions=@boxagnts/source',
      '--import',
      import.meta.resolve('tsx'),
      testkitCli(),
      '--script',
      scriptPath,
      '--quiet',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return serverProcess(child, () => rm(dir, { recursive: true, force: true }));
}

/**
 * Starts the `paced` mode's proxy (`paced-proxy.ts`, through tsx) in a child process in front of
 * `upstreamUrl`, writing each stream's events `gapMicroseconds` apart.
 */
export async function startPacedProxyProcess(upstreamUrl: string, gapMicroseconds: number): Promise<MockServerProcess> {
  const proxy = join(apiPackageDir(), 'bench', 'paced-proxy.ts');
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), proxy, upstreamUrl, String(gapMicroseconds)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return serverProcess(child, async () => undefined);
}

async function serverProcess(child: ChildProcess, cleanup: () => Promise<unknown>): Promise<MockServerProcess> {
  let url: string;
  try {
    url = await waitForUrl(child);
  } catch (error) {
    child.kill();
    await cleanup();
    throw error;
  }
  return {
    url,
    pid: child.pid,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await cleanup();
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}

function waitForUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => fail(new Error('the mock server did not start within 20 s')), 20_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(new Error(`${error.message}\n${stderr}`));
    };
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        resolve(match[1]);
      }
    });
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`the mock server exited with code ${code}`)));
  });
}
