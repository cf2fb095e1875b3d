import { type ChildProcess, fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const spawned = new Set<ChildProcess>();

/** SIGKILLs every child this module forked that is still running (for a test's cleanup, whatever failed). */
export async function killScaleChildren(): Promise<void> {
  await Promise.all(
    [...spawned].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
  spawned.clear();
}

/** A `scale-child.ts` gateway process. */
export interface ScaleChild {
  process: ChildProcess;
  url: string;
  /** Starts each occurrence of a cron job the way the scheduler does; resolves with what this instance created. */
  cron(jobId: string, times: number[]): Promise<{ created: number; deduplicated: number; errors: string[] }>;
  /** Graceful close over IPC, then waits for the process to end. */
  close(): Promise<void>;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
}

/** Forks `scale-child.ts` on a workspace folder with gateway options, and waits until it listens (90 s at most: a loaded machine is slow). */
export function spawnScaleChild(workspaceDir: string, options: Record<string, unknown>): Promise<ScaleChild> {
  const child = fork(join(here, 'scale-child.ts'), [workspaceDir, JSON.stringify(options)], {
    cwd: join(here, '..', '..'),
    execArgv: ['--conditions=@boxagnts/source', '--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  spawned.add(child);
  child.once('exit', () => spawned.delete(child));
  let output = '';
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let nextId = 0;
  const waiting = new Map<number, (reply: Record<string, unknown>) => void>();
  child.on('message', (reply: Record<string, unknown>) => {
    const resolve = waiting.get(reply.id as number);
    waiting.delete(reply.id as number);
    resolve?.(reply);
  });
  const ask = (message: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, resolve);
      exited.then(() => setTimeout(() => reject(new Error(`gateway child exited: ${errors.slice(-2000)}`)), 100));
      child.send({ id, ...message });
    });
  return new Promise<ScaleChild>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway child did not start: ${errors}`)), 90_000);
    child.once('exit', (code) => reject(new Error(`gateway child exited with ${code}: ${errors}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((text) => text.startsWith('{'));
      if (line === undefined) return;
      clearTimeout(timer);
      const parsed = JSON.parse(line) as { url: string };
      output = '';
      resolve({
        process: child,
        url: parsed.url,
        async cron(jobId, times) {
          const reply = await ask({ type: 'cron', jobId, times });
          return {
            created: reply.created as number,
            deduplicated: reply.deduplicated as number,
            errors: reply.errors as string[],
          };
        },
        async close() {
          await ask({ type: 'close' });
          child.kill('SIGTERM');
          await exited;
        },
        async kill() {
          child.kill('SIGKILL');
          await exited;
        },
      });
    });
  });
}
