import { runDemo } from './demo.js';

runDemo((line) => process.stdout.write(`${line}\n`)).catch((error: unknown) => {
  process.stderr.write(`demo failed: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
