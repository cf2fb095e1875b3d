import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';
import { bundleMapper, type CpuProfile, summarizeProfile } from '../../../scripts/bench-kit/profile-summary.js';
import { CANDIDATES } from './candidates.js';
import { type BenchOptions, BenchUsageError } from './options.js';
import { startBenchServers } from './servers.js';
import { modelFor, STREAMS } from './streams.js';

const WARMUP_STREAMS = 50;

/**
 * Runs one candidate alone on one (stream, mode) and samples the client with the V8 profiler around
 * the measured streams only (not startup, not warm-up), then prints where the time went.
 */
export async function runProfile(options: BenchOptions, write: (text: string) => void): Promise<void> {
  const profile = options.profile;
  if (profile === undefined) return;
  const candidate = CANDIDATES.find((entry) => entry.id === profile.candidate);
  if (candidate === undefined) {
    throw new BenchUsageError(
      `--profile ${profile.candidate}: candidates are ${CANDIDATES.map((c) => c.id).join(', ')}`,
    );
  }
  const stream = options.streams.length === 1 ? STREAMS.find((entry) => entry.id === options.streams[0]) : undefined;
  if (stream === undefined || !candidate.protocols.includes(stream.protocol)) {
    const fitting = STREAMS.filter((entry) => candidate.protocols.includes(entry.protocol)).map((entry) => entry.id);
    throw new BenchUsageError(`--profile ${candidate.id} needs one --stream of: ${fitting.join(', ')}`);
  }
  const mode = options.modes[0] ?? '16k';
  const servers = await startBenchServers([stream], [mode]);
  try {
    const runner = await candidate.setup(servers.urlFor(mode));
    const target = { protocol: stream.protocol, model: modelFor(stream, mode) };
    for (let index = 0; index < WARMUP_STREAMS; index += 1) await runner.run(target);
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    const cpuStart = process.cpuUsage();
    for (let index = 0; index < profile.streams; index += 1) await runner.run(target);
    const cpu = process.cpuUsage(cpuStart);
    const { profile: result } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
    session.disconnect();
    await runner.close?.();
    const micros = cpu.user + cpu.system;
    write(
      `${candidate.id} on ${stream.id}/${mode}: ${profile.streams} streams, ${(micros / 1000).toFixed(0)} ms client CPU ` +
        `(user ${(cpu.user / 1000).toFixed(0)}, system ${(cpu.system / 1000).toFixed(0)})\n\n`,
    );
    write(`${summarizeProfile(result, { top: 25, mapFrame: bundleMapper(import.meta.url) })}\n`);
    if (profile.out !== undefined) {
      await writeFile(resolve(profile.out), JSON.stringify(result));
      write(`\nwrote ${resolve(profile.out)}\n`);
    }
  } finally {
    await servers.close();
  }
}
