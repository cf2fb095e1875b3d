// Benchmarks of the component runtime itself: the cold start of the first call (new runtime, new
// worker process, component loaded from the transpile cache) against a bare forked Node answering
// one call (bench/fork-floor.ts), in alternating rounds, once with the worker bundled as the build
// ships it (dist/runtime/worker.cjs, what an installed package forks) and once with the worker's
// source modules; a warm call of a trivial function tool; and 8 concurrent calls on the default
// pool of 2 workers.
import { copyFile, mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyTool, ToolContext } from '@boxagnts/tools';
// @ts-expect-error plain-JS build script without declarations
import { bundleWorkers } from '../scripts/bundle-workers.mjs';
import { createComponentRuntime } from '../src/runtime/component-runtime.js';
import { buildJsComponent } from '../src/runtime/componentize.js';
import { benchColdPhases, type ColdPhaseRow } from './cold-phases.js';
import { forkFloor } from './fork-floor.js';

/** One benchmark row, in milliseconds. */
export interface RuntimeBenchRow {
  name: string;
  median: number;
  p99: number;
  /** Median of the same run's baseline, where the row has one. */
  baseline?: number;
}

/** Enough for a p99 that is not just the worst of a handful (each run is a new process). */
const COLD_RUNS = 30;
const WARM_RUNS = 200;
const BATCH_RUNS = 30;
const CONCURRENT = 8;

const TRIVIAL_GUEST = `export const tool = {
  describe() {
    return [{ name: 'noop', description: 'Return the input.', inputSchema: '{"type":"object"}', permission: 'read-only', env: [] }];
  },
  run(name, input) { return { content: input, images: [], isError: false, metadata: null }; },
};`;

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return Number((sorted[index] ?? 0).toFixed(3));
}

function row(name: string, samples: number[], baseline?: number[]): RuntimeBenchRow {
  return {
    name,
    median: percentile(samples, 0.5),
    p99: percentile(samples, 0.99),
    ...(baseline === undefined ? {} : { baseline: percentile(baseline, 0.5) }),
  };
}

async function time(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  return samples;
}

function contextFor(root: string): ToolContext {
  return { root, signal: new AbortController().signal, sessionId: 'bench', turnId: 'bench', toolCallId: 'bench' };
}

async function onlyTool(tools: AnyTool[]): Promise<AnyTool> {
  const [tool] = tools;
  if (tool === undefined) throw new Error('The benchmark component describes no tool.');
  return tool;
}

/**
 * Measures the runtime: cold start of the first call against the fork floor, warm trivial call,
 * and a batch of 8 concurrent calls (rows in ms; the batch row is the time for all 8), and the
 * phases of a cold start.
 */
export async function benchRuntime(): Promise<{
  rows: RuntimeBenchRow[];
  phases: ColdPhaseRow[];
  sourcePhases: ColdPhaseRow[];
}> {
  const built = await buildJsComponent({
    source: TRIVIAL_GUEST,
    witPath: join(import.meta.dirname, '..', 'wit'),
    world: 'function-tool',
  });
  const root = await realpath(await mkdtemp(join(tmpdir(), 'boxagnts-bench-runtime-')));
  const context = contextFor(root);
  // The build's bundling, into the package's node_modules so preview2-shim resolves as installed.
  const modules = join(import.meta.dirname, '..', 'node_modules');
  await mkdir(modules, { recursive: true });
  const bundleDir = await mkdtemp(join(modules, '.bench-worker-'));
  await bundleWorkers(bundleDir);
  // The same bundle without worker-cached-entry.cjs beside it: forked as it is, with no code
  // cache for the bundle (the worker as it was before round 3), the baseline of the cached one.
  const plainDir = await mkdtemp(join(modules, '.bench-worker-plain-'));
  await copyFile(join(bundleDir, 'worker.cjs'), join(plainDir, 'worker.cjs'));
  const coldStart = async (workerPath?: string) => {
    const started = performance.now();
    const runtime = createComponentRuntime(workerPath === undefined ? {} : { workerPath });
    try {
      const tool = await onlyTool(await runtime.loadFunctionComponent({ path: built.path }));
      await tool.execute({ n: 1 }, context);
      return performance.now() - started;
    } finally {
      await runtime.close();
    }
  };
  // Let the previous run's worker processes go first (they are killed, not awaited).
  const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  try {
    const bundled: number[] = [];
    const plain: number[] = [];
    const sources: number[] = [];
    const floor: number[] = [];
    const floorCjs: number[] = [];
    for (let run = 0; run < COLD_RUNS; run += 1) {
      await settle(300);
      floor.push(await forkFloor());
      await settle(100);
      floorCjs.push(await forkFloor(undefined, 'cjs'));
      // Rotate which goes first, so none always follows the floor.
      const kinds = ['bundled', 'plain', 'sources'];
      const order = [...kinds.slice(run % 3), ...kinds.slice(0, run % 3)];
      for (const which of order) {
        await settle(150);
        if (which === 'bundled') bundled.push(await coldStart(join(bundleDir, 'worker.cjs')));
        else if (which === 'plain') plain.push(await coldStart(join(plainDir, 'worker.cjs')));
        else sources.push(await coldStart());
      }
    }

    const runtime = createComponentRuntime();
    try {
      const tool = await onlyTool(await runtime.loadFunctionComponent({ path: built.path }));
      // Warm both workers and their instances for this root.
      await Promise.all([tool.execute({ n: 0 }, context), tool.execute({ n: 0 }, context)]);
      await time(20, () => tool.execute({ n: 0 }, context));
      const warm = await time(WARM_RUNS, () => tool.execute({ n: 1 }, context));
      const batch = await time(BATCH_RUNS, () =>
        Promise.all(Array.from({ length: CONCURRENT }, (_, index) => tool.execute({ n: index }, context))),
      );
      const rows = [
        row('cold start: new runtime, first call', bundled, floor),
        row('cold start, bundle without its code cache', plain, floor),
        row('cold start, worker from its source modules', sources, floor),
        row('baseline: forked Node answering one call', floor),
        row('baseline, the same with a CommonJS entry', floorCjs),
        row('warm call: trivial function tool', warm),
        row(`${CONCURRENT} concurrent calls (2 workers), whole batch`, batch),
      ];
      await runtime.close();
      // The phases of the bundled worker (what installs fork), then of the sources' worker.
      await copyFile(join(import.meta.dirname, 'timed-worker.cjs'), join(bundleDir, 'timed-worker.cjs'));
      const phases = await benchColdPhases(built.path, context, join(bundleDir, 'timed-worker.cjs'));
      return { rows, phases, sourcePhases: await benchColdPhases(built.path, context) };
    } finally {
      await runtime.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
    await rm(bundleDir, { recursive: true, force: true });
    await rm(plainDir, { recursive: true, force: true });
  }
}
