import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { runCodeReview } from './review.js';

// pnpm start [folder] [report.md]
const [folder, out] = process.argv.slice(2);
const { outcome, report } = await runCodeReview({
  ...(folder === undefined ? {} : { folder: resolve(folder) }),
  print: (line) => process.stdout.write(`${line}\n`),
});
process.stdout.write(
  `\n${report}\n[${outcome.reason}] ${outcome.turns} lead calls, $${outcome.usage.total.costUsd.toFixed(4)} in all\n`,
);
if (out !== undefined) await writeFile(resolve(out), report);
if (outcome.reason !== 'end_turn') process.exitCode = 1;
