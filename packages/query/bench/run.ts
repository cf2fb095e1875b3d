import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleBench } from './bundle.js';

/**
 * Entry of `pnpm bench`: bundles the bench (see bundle.ts) and runs the bundle in a fresh Node
 * process with `--expose-gc` (the heap stages force full collections), or with `--no-bundle` (or
 * no esbuild) runs the sources in that process under tsx.
 */
async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const bundled = argv.includes('--no-bundle') ? undefined : await bundleBench();
  let script: string[];
  if (bundled === undefined) {
    if (!argv.includes('--no-bundle'))
      process.stderr.write('bench: esbuild not found; running the sources under tsx\n');
    script = ['--import', 'tsx', join(dirname(fileURLToPath(import.meta.url)), 'entry.ts')];
  } else {
    script = [bundled];
  }
  // --expose-gc: the heap stages force full collections; --no-flush-bytecode: otherwise each forced
  // collection ages bytecode, and flushing and recompiling it moves the heap by hundreds of KiB.
  const child = spawn(process.execPath, ['--expose-gc', '--no-flush-bytecode', ...script, ...argv], {
    stdio: 'inherit',
    // Nothing may leave the process: @openai/agents would export traces to OpenAI otherwise.
    env: { ...process.env, OPENAI_AGENTS_DISABLE_TRACING: '1' },
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      if (bundled !== undefined) {
        rmSync(bundled, { force: true });
        rmSync(`${bundled}.map`, { force: true });
      }
      resolve(code ?? (signal === null ? 1 : 128));
    });
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    process.exit(1);
  },
);
