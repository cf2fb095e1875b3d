import { resolve } from 'node:path';
import { type BoxAgntsImportReport, type ImportAction, importBoxAgntsWorkspace } from '@boxagnts/workspace';
import type { Command } from 'commander';
import type { CliOutput } from './cli-workspace.js';
import { printJson } from './cli-workspace.js';
import { EXIT_CODES } from './exit-codes.js';

const VERBS: Record<ImportAction, [now: string, dry: string]> = {
  create: ['created', 'would create'],
  update: ['updated', 'would update'],
  unchanged: ['unchanged', 'unchanged'],
  skipped: ['skipped', 'would skip'],
  failed: ['FAILED', 'would fail'],
};

/** The report as lines for a terminal: one per item, the notes, the variables to set and a summary. */
export function formatImportReport(report: BoxAgntsImportReport): string {
  const lines: string[] = [
    `${report.dryRun ? 'Dry run: nothing was changed. ' : ''}BoxAgnts workspace ${report.source} -> ${report.target}`,
  ];
  for (const item of report.items) {
    const verb = VERBS[item.action][report.dryRun ? 1 : 0];
    lines.push(
      `  ${verb.padEnd(13)} ${item.kind.padEnd(12)} ${item.name}${item.detail === undefined ? '' : `  (${item.detail})`}`,
    );
  }
  if (report.notes.length > 0) lines.push('Notes:', ...report.notes.map((note) => `  - ${note}`));
  if (report.missingVariables.length > 0) {
    lines.push(
      `Set these variables before opening the workspace (the config refers to them): ${report.missingVariables.join(', ')}`,
    );
  }
  const counts = new Map<ImportAction, number>();
  for (const item of report.items) counts.set(item.action, (counts.get(item.action) ?? 0) + 1);
  const summary = [...counts].map(([action, count]) => `${count} ${VERBS[action][report.dryRun ? 1 : 0]}`).join(', ');
  lines.push(
    report.ok
      ? `Done: ${summary}.`
      : `${report.failed.length} failed (${summary}); fix them and run the import again: what is in stays, nothing is imported twice.`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * Adds `boxagnts import <dir> [--into <dir>] [--dry-run] [--json]`: imports a workspace of the Rust
 * BoxAgnts (see `importBoxAgntsWorkspace` of @boxagnts/workspace). Exits with 1 when an item failed.
 */
export function registerImportCommand(program: Command, output: CliOutput): void {
  program
    .command('import')
    .description(
      'import a workspace of the Rust BoxAgnts (.boxagnts/settings.json, auth.json, sessions, cron, sites, extensions/skills) into a workspace of this project',
    )
    .argument('<dir>', 'the BoxAgnts workspace folder (the one holding .boxagnts/)')
    .option('--into <dir>', 'the workspace to import into (default: the same folder, beside the BoxAgnts files)')
    .option('--dry-run', 'list what would change and touch nothing')
    .option('--json', 'print the report as JSON')
    .action(async (dir: string, options: { into?: string; dryRun?: boolean; json?: boolean }) => {
      const report = await importBoxAgntsWorkspace(resolve(dir), {
        ...(options.into === undefined ? {} : { into: resolve(options.into) }),
        ...(options.dryRun === true ? { dryRun: true } : {}),
      });
      if (options.json === true) printJson(output, report);
      else output.out(formatImportReport(report));
      if (!report.ok) process.exitCode = EXIT_CODES.error;
    });
}
