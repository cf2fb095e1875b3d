// `pnpm bench` for @boxagnts/wasm-tools: the sandbox against plain Node doing the same work, in one run.
import { benchExec } from './exec.js';
import { benchFsTools } from './fs-tools.js';
import { benchImport } from './import.js';
import { benchRuntime } from './runtime.js';

const fmt = (ms: number | undefined) => (ms === undefined ? '-' : `${ms.toFixed(ms < 1 ? 3 : 1)} ms`);
const ratio = (value: number, baseline: number | undefined) =>
  baseline === undefined || baseline <= 0 ? '-' : `${(value / baseline).toFixed(value / baseline < 0.1 ? 3 : 1)}x`;

function table(title: string, rows: Array<{ name: string; median: number; p99: number; baseline?: number }>): void {
  process.stdout.write(`\n${title}\n`);
  process.stdout.write(
    `${'case'.padEnd(46)} ${'median'.padStart(10)} ${'p99'.padStart(10)} ${'baseline'.padStart(10)} ${'ratio'.padStart(7)}\n`,
  );
  for (const row of rows) {
    process.stdout.write(
      `${row.name.padEnd(46)} ${fmt(row.median).padStart(10)} ${fmt(row.p99).padStart(10)} ${fmt(row.baseline).padStart(10)} ${ratio(row.median, row.baseline).padStart(7)}\n`,
    );
  }
}

table('cold import (built package; baseline: its dependency @boxagnts/tools)', benchImport());
const runtime = await benchRuntime();
table('component runtime (trivial function component)', runtime.rows);
for (const [title, phases] of [
  ['bundled worker, as installed', runtime.phases],
  ["the sources' worker", runtime.sourcePhases],
] as const) {
  process.stdout.write(`\ncold start by phase, ${title} (medians; ms after the runtime was created)\n`);
  for (const phase of phases) {
    process.stdout.write(
      `${phase.name.padEnd(62)} ends ${fmt(phase.endsAt).padStart(9)}  lasts ${fmt(phase.length).padStart(9)}\n`,
    );
  }
}
const files = await benchFsTools();
table(
  'file tools through the sandbox vs plain fs',
  files.map((row) => ({ ...row, baseline: row.baselineMedian })),
);
const exec = await benchExec();
table(
  'js_exec and bash vs Node doing the same',
  exec.map((row) => ({ ...row, baseline: row.baselineMedian })),
);
process.stdout.write('\nGoals: warm read under 3 ms, cold start under 300 ms (this machine).\n');
