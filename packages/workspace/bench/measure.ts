import { benchEntries, benchQueries } from './bench-data.js';
import { BULK_BATCH, bulkFill } from './bench-fill.js';
import type { BenchTarget } from './bench-target.js';
import { measureLoad } from './measure-load.js';
import type { BenchSizes, Measurement } from './measurement.js';
import { median, now, quantile, timed } from './stats.js';

const MANY_SESSIONS = 100;

async function appendOneSession(target: BenchTarget, round: number, count: number) {
  const entries = benchEntries(count, 1000 + round);
  const latencies: number[] = [];
  const start = now();
  for (const entry of entries) latencies.push(await timed(() => target.append(`one-${round}`, [entry])));
  return { rate: count / ((now() - start) / 1000), latencies };
}

async function appendManySessions(target: BenchTarget, round: number, perSession: number) {
  const start = now();
  await Promise.all(
    Array.from({ length: MANY_SESSIONS }, async (_, session) => {
      const entries = benchEntries(perSession, 2000 + round * MANY_SESSIONS + session);
      for (const entry of entries) await target.append(`many-${round}-${session}`, [entry]);
    }),
  );
  return (MANY_SESSIONS * perSession) / ((now() - start) / 1000);
}

function rateRow(measure: string, store: readonly number[], baseline: readonly number[]): Measurement {
  const storeRate = median(store);
  const baselineRate = median(baseline);
  return {
    measure,
    store: { value: storeRate, unit: 'msg/s' },
    baseline: { value: baselineRate, unit: 'msg/s' },
    ratio: baselineRate / storeRate,
  };
}

/**
 * Runs every measure on the store and the baseline, alternating them round by round so drift
 * (other load, the disk's cache) hits both alike. Search runs first, on exactly its data set.
 */
export async function measureAll(
  store: BenchTarget,
  baseline: BenchTarget,
  sizes: BenchSizes,
  log: (line: string) => void,
): Promise<Measurement[]> {
  const rows: Measurement[] = [];
  const pair = [store, baseline] as const;

  log(`filling ${sizes.searchMessages} messages for search`);
  const bulk: number[] = [];
  for (const target of pair) bulk.push(await bulkFill(target, 'search', 100, sizes.searchMessages));
  rows.push(rateRow(`append in batches of ${BULK_BATCH} (filling the search data)`, [bulk[0] ?? 0], [bulk[1] ?? 0]));
  for (const { label, query } of benchQueries()) {
    const times: number[][] = [[], []];
    const hits: number[] = [];
    for (const [index, target] of pair.entries()) {
      // The first run warms the caches; the repeats are measured.
      hits.push((await target.search(query)).length);
      for (let repeat = 0; repeat < sizes.searchRepeats; repeat++)
        times[index]?.push(await timed(() => target.search(query)));
    }
    if (hits[0] !== hits[1])
      throw new Error(`search "${query}": the store found ${hits[0]} hits, the baseline ${hits[1]}`);
    const storeTimes = times[0] ?? [];
    const baselineTimes = times[1] ?? [];
    rows.push({
      measure: `search ${sizes.searchMessages.toLocaleString('en-US')} messages, top 20: ${label}`,
      store: { value: median(storeTimes), unit: 'ms' },
      baseline: { value: median(baselineTimes), unit: 'ms' },
      ratio: median(storeTimes) / median(baselineTimes),
    });
  }

  rows.push(...(await measureLoad(store, baseline, sizes, log)));

  log(`appending ${sizes.appendsOneSession} messages to one session, ${sizes.rounds} rounds`);
  const oneRates: number[][] = [[], []];
  const oneLatencies: number[][] = [[], []];
  for (let round = 0; round < sizes.rounds; round++) {
    for (const [index, target] of pair.entries()) {
      const result = await appendOneSession(target, round, sizes.appendsOneSession);
      oneRates[index]?.push(result.rate);
      oneLatencies[index]?.push(...result.latencies);
    }
  }
  const one = rateRow('append to one session, one message per transaction', oneRates[0] ?? [], oneRates[1] ?? []);
  const latencyNote = (latencies: readonly number[]) =>
    `p50 ${median(latencies).toFixed(2)} ms, p99 ${quantile(latencies, 0.99).toFixed(2)} ms`;
  one.store.note = latencyNote(oneLatencies[0] ?? []);
  one.baseline.note = latencyNote(oneLatencies[1] ?? []);
  rows.push(one);

  log(`appending ${sizes.appendsPerSession} messages to each of 100 sessions at once, ${sizes.rounds} rounds`);
  const manyRates: number[][] = [[], []];
  for (let round = 0; round < sizes.rounds; round++) {
    for (const [index, target] of pair.entries())
      manyRates[index]?.push(await appendManySessions(target, round, sizes.appendsPerSession));
  }
  rows.push(
    rateRow('append across 100 sessions at once, one message per transaction', manyRates[0] ?? [], manyRates[1] ?? []),
  );
  return rows;
}
