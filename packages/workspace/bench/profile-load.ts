import { Session } from 'node:inspector/promises';
import { type CpuProfile, summarizeProfile } from '../../../scripts/bench-kit/profile-summary.js';
import { bulkFill } from './bench-fill.js';
import type { BenchTarget } from './bench-target.js';

const WARMUP_LOADS = 5;

/** Samples `runs` loads of the session `load-0` of one target; resolves with the printed summary. */
async function profileTarget(target: BenchTarget, runs: number): Promise<string> {
  for (let index = 0; index < WARMUP_LOADS; index++) await target.load('load-0');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const cpuStart = process.cpuUsage();
  for (let index = 0; index < runs; index++) await target.load('load-0');
  const cpu = process.cpuUsage(cpuStart);
  const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
  session.disconnect();
  const perLoad = (cpu.user + cpu.system) / 1000 / runs;
  return `${target.name}: ${runs} loads, ${perLoad.toFixed(1)} ms CPU per load (profiler attached)\n\n${summarizeProfile(profile, { top: 12, runs })}`;
}

/**
 * `--profile-load`: fills one session of `messages` in the store and in the baseline, then samples
 * each one's loads with the V8 profiler (after a warm-up) and gives back both summaries, to show
 * where the store's time goes beyond the raw driver's.
 */
export async function profileLoads(
  store: BenchTarget,
  baseline: BenchTarget,
  messages: number,
  runs: number,
): Promise<string> {
  for (const target of [store, baseline]) await bulkFill(target, 'load', 1, messages);
  const sections: string[] = [];
  for (const target of [store, baseline]) sections.push(await profileTarget(target, runs));
  return sections.join('\n\n');
}
