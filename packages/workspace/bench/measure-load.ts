import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { bulkFill } from './bench-fill.js';
import type { BenchTarget } from './bench-target.js';
import type { BenchSizes, Measurement } from './measurement.js';
import { median, now } from './stats.js';

/** One load: wall-clock time and this process's CPU time (user + system), in ms. */
interface LoadSample {
  wall: number;
  cpu: number;
}

// A full collection before each load, so no load pays for the garbage of the one before it (a
// 10,000-message load leaves megabytes of strings and objects behind).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

async function sampleLoad(load: () => Promise<unknown[]>, expected: number, name: string): Promise<LoadSample> {
  collectGarbage();
  const cpuStart = process.cpuUsage();
  const start = now();
  const loaded = (await load()).length;
  const wall = now() - start;
  const cpu = process.cpuUsage(cpuStart);
  if (loaded !== expected) throw new Error(`${name} loaded ${loaded} of ${expected} messages`);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

/**
 * Wall-clock medians decide the ratio; the note adds the fastest load and the CPU time this process
 * spent (on a loaded machine they move less than the median; on PostgreSQL the server's share of
 * the work is not in the CPU time).
 */
function side(samples: readonly LoadSample[]): Measurement['store'] {
  const fastest = Math.min(...samples.map((sample) => sample.wall));
  const cpu = median(samples.map((sample) => sample.cpu));
  return {
    value: median(samples.map((sample) => sample.wall)),
    unit: 'ms',
    note: `fastest ${fastest.toFixed(1)} ms, CPU ${cpu.toFixed(1)} ms`,
  };
}

/**
 * Loads a session of `sizes.loadMessages` from the store and the baseline, interleaved round by
 * round (in turn first), after checking that both give back deep-equal entries (so both do the same work); with
 * the previous bench's narrower baseline as a second row where the baseline has one.
 */
export async function measureLoad(
  store: BenchTarget,
  baseline: BenchTarget,
  sizes: BenchSizes,
  log: (line: string) => void,
): Promise<Measurement[]> {
  log(`filling a ${sizes.loadMessages}-message session`);
  for (const target of [store, baseline]) await bulkFill(target, 'load', 1, sizes.loadMessages);
  assert.deepStrictEqual(
    await baseline.load('load-0'),
    await store.load('load-0'),
    `${baseline.name} and ${store.name} must load the same entries`,
  );
  const loaders: Array<{ name: string; load: () => Promise<unknown[]> }> = [
    { name: store.name, load: () => store.load('load-0') },
    { name: baseline.name, load: () => baseline.load('load-0') },
  ];
  const narrow = baseline.loadNarrow?.bind(baseline);
  if (narrow !== undefined) loaders.push({ name: `${baseline.name} (narrow)`, load: () => narrow('load-0') });
  log(`loading it ${sizes.loadRepeats} times from each`);
  const samples: LoadSample[][] = loaders.map(() => []);
  for (let repeat = 0; repeat < sizes.loadRepeats; repeat++) {
    // Every other round in reverse order, so neither side always runs first.
    const order = loaders.map((_, index) => index);
    if (repeat % 2 === 1) order.reverse();
    for (const index of order) {
      const loader = loaders[index] as (typeof loaders)[number];
      samples[index]?.push(await sampleLoad(loader.load, sizes.loadMessages, loader.name));
    }
  }
  const [storeSamples = [], ...baselines] = samples;
  const storeSide = side(storeSamples);
  const measure = `load a ${sizes.loadMessages.toLocaleString('en-US')}-message session`;
  return baselines.map((baselineSamples, index) => {
    const baselineSide = side(baselineSamples);
    return {
      measure:
        index === 0
          ? measure
          : `${measure}, against the previous baseline (3 columns, content parsed, no entries built)`,
      store: storeSide,
      baseline: baselineSide,
      ratio: storeSide.value / baselineSide.value,
    };
  });
}
