import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** A gateway child process. */
export interface GatewayChild {
  process: ChildProcess;
  url: string;
  recovered: { resumed: string[]; interrupted: string[]; started: string[] };
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
}

/** Starts `gateway-child.ts` on a workspace folder under tsx and waits until it listens (30 s at most). */
export function spawnGateway(workspaceDir: string): Promise<GatewayChild> {
  const child = spawn(
    process.execPath,
    ['--conditions=@boxagnts/source', '--import', 'tsx', join(here, 'gateway-child.ts'), workspaceDir],
    { cwd: join(here, '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return new Promise<GatewayChild>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway child did not start: ${errors}`)), 30_000);
    child.once('close', (code) => reject(new Error(`gateway child exited with ${code}: ${errors}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((text) => text.startsWith('{'));
      if (line === undefined) return;
      clearTimeout(timer);
      const parsed = JSON.parse(line) as Pick<GatewayChild, 'url' | 'recovered'>;
      resolve({
        process: child,
        ...parsed,
        async kill() {
          child.kill('SIGKILL');
          await exited;
        },
      });
    });
  });
}
