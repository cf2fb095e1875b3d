// Benchmarks of the execution tools: `js_exec` per call against `new Function` in Node, and the
// simulated `bash` per command against the real bash started with `spawnSync`.
import { spawnSync } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolContext } from '@boxagnts/tools';
import { createBashTool } from '../src/bash/bash-tool.js';
import { createJsExecTool } from '../src/js-exec/js-exec-tool.js';

/** One benchmark row, in milliseconds, with the baseline measured in the same run. */
export interface ExecBenchRow {
  name: string;
  median: number;
  p99: number;
  /** What the baseline does. */
  baseline: string;
  baselineMedian: number;
  baselineP99: number;
}

const WARMUP_RUNS = 5;
const JS_RUNS = 200;
const BASH_RUNS = 40;

function percentile(samples: readonly number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return Number((sorted[index] ?? 0).toFixed(3));
}

async function time(runs: number, work: () => unknown): Promise<number[]> {
  for (let run = 0; run < WARMUP_RUNS; run += 1) await work();
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  return samples;
}

function row(name: string, samples: number[], baseline: string, baselineSamples: number[]): ExecBenchRow {
  return {
    name,
    median: percentile(samples, 0.5),
    p99: percentile(samples, 0.99),
    baseline,
    baselineMedian: percentile(baselineSamples, 0.5),
    baselineP99: percentile(baselineSamples, 0.99),
  };
}

function contextFor(root: string): ToolContext {
  return { root, signal: new AbortController().signal, sessionId: 'bench', turnId: 'bench', toolCallId: 'bench' };
}

function expectOk(result: { isError?: boolean }, what: string): void {
  if (result.isError === true) throw new Error(`benchmark step failed: ${what}`);
}

const JS_CASES = [
  { name: 'js_exec: small expression', code: '[1, 2, 3].map((n) => n * 2).join(",")' },
  {
    name: 'js_exec: 10k-iteration loop with console.log',
    code: 'let sum = 0; for (let i = 0; i < 10000; i++) sum += i % 7; console.log("sum", sum); sum',
  },
] as const;

const BASH_CASES = [
  { name: 'bash (simulated): echo', command: 'echo hello' },
  { name: 'bash (simulated): cat | sort | uniq | wc', command: 'cat data.txt | sort | uniq | wc -l' },
  { name: 'bash (simulated): grep -c over a file', command: 'grep -c "line 1" data.txt' },
] as const;

/**
 * Runs the execution benchmarks: `js_exec` per call (warm engine, fresh context) against the same
 * code through `new Function` in Node, and the simulated `bash` per command (fresh shell) against
 * `spawnSync('bash', ['-c', ...])` in the same folder.
 */
export async function benchExec(): Promise<ExecBenchRow[]> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'boxagnts-bench-exec-')));
  const rows: ExecBenchRow[] = [];
  try {
    const lines = Array.from({ length: 2000 }, (_, index) => `line ${index % 300}`);
    await writeFile(join(root, 'data.txt'), `${lines.join('\n')}\n`);
    const context = contextFor(root);

    const jsExec = createJsExecTool();
    for (const { name, code } of JS_CASES) {
      const samples = await time(JS_RUNS, async () => expectOk(await jsExec.execute({ code }, context), name));
      // The same code in Node's own engine, console silenced: what the sandbox costs on top.
      const silent = { log: () => undefined };
      const baseline = await time(JS_RUNS, () =>
        new Function('console', `return eval(${JSON.stringify(code)})`)(silent),
      );
      rows.push(row(name, samples, 'new Function + eval in Node', baseline));
    }

    const bash = createBashTool();
    for (const { name, command } of BASH_CASES) {
      const samples = await time(BASH_RUNS, async () => expectOk(await bash.execute({ command }, context), name));
      const baseline = await time(BASH_RUNS, () => spawnSync('bash', ['-c', command], { cwd: root }));
      rows.push(row(name, samples, "spawnSync('bash', ['-c', ...])", baseline));
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return rows;
}
