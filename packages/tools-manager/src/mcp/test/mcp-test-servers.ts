import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolContext } from '@boxagnts/tools';

const require = createRequire(import.meta.url);

/** The bin script of an installed package, from its package.json `bin` field (run it with `node`, never npx). */
export function packageBin(packageName: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (bin === undefined) throw new Error(`${packageName} has no bin entry`);
  return join(dirname(manifestPath), bin);
}

/** `@modelcontextprotocol/server-everything`'s launcher (first argument: stdio | sse | streamableHttp). */
export const everythingBin = packageBin('@modelcontextprotocol/server-everything');
/** `@modelcontextprotocol/server-filesystem`'s launcher (arguments: allowed directories). */
export const filesystemBin = packageBin('@modelcontextprotocol/server-filesystem');
/** The fixture server built on the SDK's McpServer (see fixtures/fixture-server.mjs). */
export const fixtureServerPath = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'fixture-server.mjs');

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A server-everything process in streamableHttp mode. */
export interface EverythingHttpServer {
  process: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts server-everything in streamableHttp mode on `port` (it reads the port from the PORT
 * variable and serves `/mcp`); resolves once it logs that it listens.
 */
export function startEverythingHttp(port: number): Promise<EverythingHttpServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [everythingBin, 'streamableHttp'], {
      env: { PATH: process.env.PATH ?? '', PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${output}`)), 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with ${code}: ${output}`));
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on port')) {
        clearTimeout(timer);
        resolve({
          process: child,
          url: `http://127.0.0.1:${port}/mcp`,
          stop: () => stopProcess(child),
        });
      }
    });
  });
}

/** Kills a child with SIGKILL and waits until it is gone. */
export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Whether a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A tool context for MCP tests; pass `signal` to cancel. */
export function mcpTestContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    root: process.cwd(),
    signal: new AbortController().signal,
    sessionId: 'session-mcp-test',
    turnId: 'turn-1',
    toolCallId: 'call_mcp_1',
    ...overrides,
  };
}
