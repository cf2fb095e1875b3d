import { spawn } from 'node:child_process';
import { bundleClient } from './bundle.js';

/**
 * Entry of `pnpm bench`: bundles the client (see bundle.ts) and runs the bundle in a fresh Node
 * process, or with `--no-bundle` (or no esbuild) runs the sources here under tsx.
 */
async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const bundled = argv.includes('--no-bundle') ? undefined : await bundleClient();
  if (bundled === undefined) {
    if (!argv.includes('--no-bundle'))
      process.stderr.write('bench: esbuild not found; running the sources under tsx\n');
    const { runBench } = await import('./main.js');
    return runBench(argv);
  }
  const child = spawn(process.execPath, [bundled, ...argv], { stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    process.exit(1);
  },
);
