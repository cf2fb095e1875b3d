// Where a cold start's time goes: new runtime, load, first call of the trivial component, with the
// worker's own timestamps (bench/timed-worker.mjs). Each phase is the median over the runs, in ms
// from the moment the runtime was created.
import { readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyTool, ToolContext } from '@boxagnts/tools';
import { createComponentRuntime } from '../src/runtime/component-runtime.js';

/** One phase: when it ends (median ms after the runtime was created) and its median length. */
export interface ColdPhaseRow {
  name: string;
  endsAt: number;
  length: number;
}

interface Mark {
  name: string;
  at: number;
  end?: number;
}

const RUNS = 15;
const TIMED_WORKER = join(import.meta.dirname, 'timed-worker.mjs');

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** The phases of one run, as [name, start, end] in ms after `origin`. */
function phasesOf(marks: Mark[], origin: number, loaded: number, done: number): Array<[string, number, number]> {
  const first = (name: string) => marks.find((mark) => mark.name === name)?.at ?? Number.NaN;
  const spans = (name: string) => marks.filter((mark) => mark.name === name);
  const compiles = spans('compile');
  const instances = spans('instantiate');
  const at = (value: number) => value - origin;
  const processStart = at(first('process'));
  const entry = at(first('entry'));
  const ready = at(first('send:ready'));
  const compileStart = at(Math.min(...compiles.map((mark) => mark.at)));
  const compileEnd = at(Math.max(...compiles.map((mark) => mark.end ?? mark.at)));
  const preloaded = at(first('send:preloaded'));
  const callReceived = at(first('receive:call'));
  const instantiateStart = at(Math.min(...instances.map((mark) => mark.at)));
  const instantiateEnd = at(Math.max(...instances.map((mark) => mark.end ?? mark.at)));
  const result = at(first('send:result'));
  return [
    ['host: runtime created to fork (read, hash, cache lookup)', 0, processStart],
    ['host: tools loaded (describe cache)', 0, at(loaded)],
    ['worker: Node start (process to first line of the entry)', processStart, entry],
    ['worker: job code imported (entry to ready)', entry, ready],
    ['worker: core modules compiling (background threads)', compileStart, compileEnd],
    ['worker: preload done (glue evaluated, modules compiled)', entry, preloaded],
    ['host: call reaches the worker', ready, callReceived],
    ['worker: instantiate (capabilities, core instances)', instantiateStart, instantiateEnd],
    ['worker: first call runs and answers', instantiateEnd, result],
    ['host: answer received (whole cold start)', 0, at(done)],
  ];
}

/**
 * Runs RUNS cold starts with a timed worker (default: the sources' worker.mjs wrapped by
 * timed-worker.mjs) and returns the median of each phase.
 */
export async function benchColdPhases(
  componentPath: string,
  context: ToolContext,
  timedWorker = TIMED_WORKER,
): Promise<ColdPhaseRow[]> {
  const runs: Array<Array<[string, number, number]>> = [];
  for (let run = 0; run < RUNS; run += 1) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const origin = performance.timeOrigin + performance.now();
    const runtime = createComponentRuntime({ workerPath: timedWorker });
    let loaded = origin;
    let done = origin;
    try {
      const [tool] = (await runtime.loadFunctionComponent({ path: componentPath })) as [AnyTool];
      loaded = performance.timeOrigin + performance.now();
      await tool.execute({ n: 1 }, context);
      done = performance.timeOrigin + performance.now();
    } finally {
      await runtime.close();
    }
    const files = (await readdir(tmpdir())).filter((name) => name.startsWith('boxagnts-cold-phases-'));
    for (const name of files) {
      const path = join(tmpdir(), name);
      const marks = JSON.parse(await readFile(path, 'utf8')) as Mark[];
      await rm(path, { force: true });
      runs.push(phasesOf(marks, origin, loaded, done));
    }
  }
  const names = runs[0]?.map(([name]) => name) ?? [];
  return names.map((name, index) => ({
    name,
    endsAt: median(runs.map((phases) => phases[index]?.[2] ?? Number.NaN)),
    length: median(runs.map((phases) => (phases[index]?.[2] ?? Number.NaN) - (phases[index]?.[1] ?? Number.NaN))),
  }));
}
