// The baseline of the cold-start rows: what any sandbox that runs guests in a fresh Node process
// costs before it does anything, measured in the same run. A process forked with the pool's flags
// (worker-pool.ts) that answers `ready`, gets one call over IPC and answers it.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { EXTENDED_CONST_FLAG } from '../src/runtime/worker-pool.js';

/** The floor's entry: an ES module (as the sources' worker.mjs) or CommonJS (as the built worker.cjs). */
export type FloorEntry = 'mjs' | 'cjs';

/** One fork-to-answer round trip in ms (the child is killed afterwards). */
export function forkFloor(maxMemoryBytes = 256 * 1024 * 1024, entry: FloorEntry = 'mjs'): Promise<number> {
  const started = performance.now();
  const child = fork(join(import.meta.dirname, `fork-floor-child.${entry}`), [], {
    execArgv: [
      `--wasm-max-mem-pages=${Math.floor(maxMemoryBytes / 65536)}`,
      ...EXTENDED_CONST_FLAG,
      `--max-old-space-size=${Math.ceil(maxMemoryBytes / (1024 * 1024)) + 256}`,
    ],
    env: {},
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    serialization: 'json',
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('message', (message: { type?: string }) => {
      if (message.type === 'ready') child.send({ type: 'call', id: 1 });
      if (message.type === 'result') {
        const elapsed = performance.now() - started;
        child.once('exit', () => resolve(elapsed));
        child.kill('SIGKILL');
      }
    });
  });
}
