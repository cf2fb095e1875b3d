import { runExample } from './run-example.js';

runExample((line) => process.stdout.write(`${line}\n`)).catch((error: unknown) => {
  process.stderr.write(`example failed: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
