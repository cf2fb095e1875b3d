import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';
import { bundleMapper, type CpuProfile, summarizeProfile } from '../../../scripts/bench-kit/profile-summary.js';
import { CANDIDATES } from './candidates.js';
import { BenchUsageError } from './options.js';
import { TASK_TOOL_TURNS } from './script.js';
import { checkedRun, checkResult } from './verify.js';

const WARMUP_RUNS = 500;

/**
 * Runs one candidate alone on the 10-tool-turn task and samples it with the V8 profiler around the
 * measured runs only (not startup, not warm-up), then prints where the time went.
 */
export async function runProfile(
  profile: { candidate: string; runs: number; out: string | undefined },
  write: (text: string) => void,
): Promise<void> {
  const candidate = CANDIDATES.find((entry) => entry.id === profile.candidate);
  if (candidate === undefined) {
    throw new BenchUsageError(
      `--profile ${profile.candidate}: candidates are ${CANDIDATES.map((c) => c.id).join(', ')}`,
    );
  }
  const prepared = await candidate.prepare({ toolTurns: TASK_TOOL_TURNS });
  await checkedRun(prepared, TASK_TOOL_TURNS);
  for (let index = 0; index < WARMUP_RUNS; index++) checkResult(await prepared.run(), TASK_TOOL_TURNS);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const cpuStart = process.cpuUsage();
  for (let index = 0; index < profile.runs; index++) await prepared.run();
  const cpu = process.cpuUsage(cpuStart);
  const { profile: result } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
  session.disconnect();
  const micros = cpu.user + cpu.system;
  write(
    `${candidate.id}: ${profile.runs} runs of ${TASK_TOOL_TURNS + 1} turns, ${(micros / 1000).toFixed(0)} ms CPU, ` +
      `${(micros / profile.runs).toFixed(1)} µs/run, ${(micros / profile.runs / (TASK_TOOL_TURNS + 1)).toFixed(2)} µs/turn ` +
      '(with the profiler attached)\n\n',
  );
  write(`${summarizeProfile(result, { top: 30, runs: profile.runs, mapFrame: bundleMapper(import.meta.url) })}\n`);
  if (profile.out !== undefined) {
    await writeFile(resolve(profile.out), JSON.stringify(result));
    write(`\nwrote ${resolve(profile.out)}\n`);
  }
}
