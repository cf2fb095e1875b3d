import { runExample } from './run-example.js';

runExample((text) => process.stdout.write(text))
  .then(async ({ mock }) => {
    process.stdout.write('\n');
    await mock.close();
  })
  .catch((error: unknown) => {
    process.stderr.write(`example failed: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  });
