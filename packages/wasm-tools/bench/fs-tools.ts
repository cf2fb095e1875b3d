// Benchmarks of the sandboxed file tools: warm `read` and `edit` through the component runtime
// against plain `fs` doing the same work, the cold start (new runtime, first call at once) and
// the first call a moment after loading (the pool has compiled the component ahead by then).
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolContext } from '@boxagnts/tools';
import { buildFsToolsComponent } from '../guest/build-fs-tools.js';
import { createFsTools } from '../src/fs-tools/create-fs-tools.js';
import { createComponentRuntime } from '../src/runtime/component-runtime.js';

/** One benchmark row: medians and p99 in milliseconds. */
export interface FsToolsBenchRow {
  name: string;
  median: number;
  p99: number;
  /** Plain `fs` doing the same work, for comparison. */
  baselineMedian: number;
}

const WARM_RUNS = 200;
const CONCURRENT_RUNS = 40;
const COLD_RUNS = 5;
/** Pause before each cold run, so the previous runtime's processes are gone. */
const COLD_PAUSE_MS = 300;
/** Time between loading the tools and the first call in the "after load" row. */
const LOAD_GAP_MS = 1000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return Number((sorted[index] ?? 0).toFixed(3));
}

async function time(runs: number, work: (run: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await work(run);
    samples.push(performance.now() - started);
  }
  return samples;
}

function row(name: string, samples: number[], baseline: number[]): FsToolsBenchRow {
  return {
    name,
    median: percentile(samples, 0.5),
    p99: percentile(samples, 0.99),
    baselineMedian: percentile(baseline, 0.5),
  };
}

function contextFor(root: string): ToolContext {
  return { root, signal: new AbortController().signal, sessionId: 'bench', turnId: 'bench', toolCallId: 'bench' };
}

/** What the `read` tool does, in plain `fs`: read, split, number 2000 lines. */
async function plainRead(path: string): Promise<string> {
  const lines = (await readFile(path, 'utf8')).split('\n');
  return lines
    .slice(0, 2000)
    .map((line, index) => `${String(index + 1).padStart(6, ' ')}\t${line}`)
    .join('\n');
}

/** What the `edit` tool does, in plain `fs`: read, check uniqueness, replace, write. */
async function plainEdit(path: string, from: string, to: string): Promise<void> {
  const text = await readFile(path, 'utf8');
  const first = text.indexOf(from);
  if (first < 0 || text.indexOf(from, first + from.length) >= 0) throw new Error('edit target not unique');
  await writeFile(path, text.slice(0, first) + to + text.slice(first + from.length));
}

/**
 * Runs the fs-tools benchmarks: warm `read` of a 200-line file and warm `edit` (one replacement)
 * through the sandbox vs plain `fs`, the cold start (a new runtime's first `read`, made at once)
 * and a new runtime's first `read` made a second after loading the tools.
 */
export async function benchFsTools(): Promise<FsToolsBenchRow[]> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'boxagnts-bench-fs-')));
  const lines = Array.from({ length: 200 }, (_, index) => `const value${index} = ${index}; // line ${index + 1}`);
  await writeFile(join(root, 'file.ts'), `${lines.join('\n')}\n`);
  await writeFile(join(root, 'plain.ts'), `${lines.join('\n')}\n`);
  const built = await buildFsToolsComponent();
  const runtime = createComponentRuntime();
  try {
    const tools = await createFsTools({ runtime, component: { path: built.path } });
    const read = tools.find((tool) => tool.name === 'read');
    const edit = tools.find((tool) => tool.name === 'edit');
    if (read === undefined || edit === undefined) throw new Error('fs-tools lacks read or edit');
    const context = contextFor(root);
    await read.execute({ file_path: 'file.ts' }, context);
    await edit.execute({ file_path: 'file.ts', old_string: 'value7 = 7;', new_string: 'value7 = 7;' + ' ' }, context);
    const readSamples = await time(WARM_RUNS, () => read.execute({ file_path: 'file.ts' }, context));
    const readBaseline = await time(WARM_RUNS, () => plainRead(join(root, 'plain.ts')));
    const toggle = (run: number) => (run % 2 === 0 ? ['value9 = 9;', 'value9 = 99;'] : ['value9 = 99;', 'value9 = 9;']);
    const editSamples = await time(WARM_RUNS, (run) => {
      const [from, to] = toggle(run) as [string, string];
      return edit.execute({ file_path: 'file.ts', old_string: from, new_string: to }, context);
    });
    const editBaseline = await time(WARM_RUNS, (run) => {
      const [from, to] = toggle(run) as [string, string];
      return plainEdit(join(root, 'plain.ts'), from, to);
    });
    // Throughput: 8 reads at once on the default pool (2 workers), per batch, against 8 plain reads at once.
    const batchSamples = await time(CONCURRENT_RUNS, () =>
      Promise.all(Array.from({ length: 8 }, () => read.execute({ file_path: 'file.ts' }, context))),
    );
    const batchBaseline = await time(CONCURRENT_RUNS, () =>
      Promise.all(Array.from({ length: 8 }, () => plainRead(join(root, 'plain.ts')))),
    );
    const coldSamples: number[] = [];
    const afterLoadSamples: number[] = [];
    for (let run = 0; run < COLD_RUNS; run += 1) {
      await pause(COLD_PAUSE_MS);
      const fresh = createComponentRuntime();
      try {
        const started = performance.now();
        const freshTools = await createFsTools({ runtime: fresh, component: { path: built.path } });
        await freshTools.find((tool) => tool.name === 'read')?.execute({ file_path: 'file.ts' }, context);
        coldSamples.push(performance.now() - started);
      } finally {
        await fresh.close();
      }
      await pause(COLD_PAUSE_MS);
      const loaded = createComponentRuntime();
      try {
        const loadedRead = (await createFsTools({ runtime: loaded, component: { path: built.path } })).find(
          (tool) => tool.name === 'read',
        );
        await pause(LOAD_GAP_MS);
        const started = performance.now();
        await loadedRead?.execute({ file_path: 'file.ts' }, context);
        afterLoadSamples.push(performance.now() - started);
      } finally {
        await loaded.close();
      }
    }
    const coldBaseline = await time(COLD_RUNS, () => plainRead(join(root, 'plain.ts')));
    return [
      row('fs-tools read (warm, 200 lines)', readSamples, readBaseline),
      row('fs-tools edit (warm, 1 replacement)', editSamples, editBaseline),
      row('fs-tools 8 concurrent reads (whole batch)', batchSamples, batchBaseline),
      row('fs-tools cold start (new runtime, first read)', coldSamples, coldBaseline),
      row('fs-tools first read 1 s after loading', afterLoadSamples, coldBaseline),
    ];
  } finally {
    await runtime.close();
    await rm(root, { recursive: true, force: true });
  }
}
