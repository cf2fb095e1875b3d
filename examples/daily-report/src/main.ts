import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDailyReport } from './daily-report.js';

// pnpm start [--now] [--folder <dir>] [--dir <workspace>] [--cron "<expression>"] [--timezone <zone>]
const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const here = fileURLToPath(new URL('..', import.meta.url));
const cron = option('--cron');
const timezone = option('--timezone');
const report = await startDailyReport({
  dir: resolve(option('--dir') ?? resolve(here, 'workspace')),
  folder: resolve(option('--folder') ?? resolve(here, 'sample')),
  now: args.includes('--now'),
  ...(cron === undefined ? {} : { cron }),
  ...(timezone === undefined ? {} : { timezone }),
  print: (line) => process.stdout.write(`${line}\n`),
});
if (report.fired !== undefined) {
  const entry = report.fired;
  process.stdout.write(
    `ran now: ${entry.status} (${entry.outcome ?? 'no outcome'}), $${(entry.costUsd ?? 0).toFixed(4)}, session ${entry.sessionId}\n`,
  );
  process.stdout.write(`report: ${report.reportPath}\n`);
  await report.close();
  if (entry.status !== 'success') process.exitCode = 1;
} else {
  const [next] = await report.gateway.workspace.store.cron.nextRuns(report.job.id, 1);
  process.stdout.write(
    `next run: ${next?.local ?? 'none'}; the report will be at ${report.reportUrl ?? report.reportPath}\n`,
  );
  process.stdout.write('Ctrl-C stops the gateway (a missed morning runs once when it starts again).\n');
  const stop = () => void report.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
