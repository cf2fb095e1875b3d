import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { ADAPTERS } from './adapters.js';
import type { Candidate, Runner } from './candidate.js';
import { CANDIDATES } from './candidates.js';
import { measureCase } from './measure.js';
import { type BenchOptions, BenchUsageError, candidateSelected, parseOptions, USAGE } from './options.js';
import { runProfile } from './profile.js';
import type { BenchProtocol } from './protocols.js';
import { type CaseResult, formatSummary, formatTable, toCaseResult } from './report.js';
import { startBenchServers } from './servers.js';
import { modelFor, RECORDINGS_MISSING, STREAMS, type WriteMode } from './streams.js';

const ALL_PROTOCOLS: readonly BenchProtocol[] = [
  'anthropic',
  'openai-chat',
  'openai-responses',
  'gemini',
  'bedrock',
  'cohere',
  'ollama',
];

/** Streams of each (stream, mode) the lower bound consumes before anything is measured. */
const SERVER_WARMUP_STREAMS = 5;

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

function out(text: string): void {
  process.stdout.write(text);
}

/** Runs the bench (or a profile) for a command line; resolves to the exit code. */
export async function runBench(argv: readonly string[]): Promise<number> {
  try {
    const options = parseOptions(argv);
    if (options.help) {
      out(`${USAGE}\n`);
      return 0;
    }
    const unknown = options.streams.filter((id) => !STREAMS.some((stream) => stream.id === id));
    if (unknown.length > 0) {
      throw new BenchUsageError(
        `unknown --stream ${unknown.join(', ')}; streams: ${STREAMS.map((stream) => stream.id).join(', ')}` +
          (RECORDINGS_MISSING === undefined ? '' : ` (${RECORDINGS_MISSING})`),
      );
    }
    if (options.profile !== undefined) await runProfile(options, out);
    else await measureAll(options);
    return 0;
  } catch (error) {
    if (error instanceof BenchUsageError) {
      log(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    log(String((error as Error)?.stack ?? error));
    return 1;
  }
}

async function measureAll(options: BenchOptions): Promise<void> {
  if (RECORDINGS_MISSING !== undefined) log(RECORDINGS_MISSING);
  const streams = STREAMS.filter((stream) => options.streams.length === 0 || options.streams.includes(stream.id));
  const candidates = CANDIDATES.filter(
    (candidate) =>
      candidate.kind === 'lower-bound' || candidateSelected(candidate.id, candidate.kind, options.candidates),
  );

  const servers = await startBenchServers(streams, options.modes);
  const killServer = () => servers.kill();
  process.once('exit', killServer);
  log(`${servers.description}; client pid ${process.pid}; node ${process.version}`);

  // One runner per candidate and server (the paced proxy is a server of its own).
  const runners = new Map<string, Runner>();
  const runnerFor = async (candidate: Candidate, mode: WriteMode): Promise<Runner> => {
    const url = servers.urlFor(mode);
    const key = `${candidate.id} ${url}`;
    let runner = runners.get(key);
    if (runner === undefined) {
      runner = await candidate.setup(url);
      runners.set(key, runner);
    }
    return runner;
  };
  const cases: CaseResult[] = [];
  const started = Date.now();
  try {
    // Warm the server's code paths (in `event` mode its pace sets how often the client wakes) and the
    // client's shared ones, so the first case is not measured against a cold process.
    const lower = candidates.find((candidate) => candidate.kind === 'lower-bound');
    if (lower !== undefined) {
      for (const stream of streams) {
        for (const mode of options.modes) {
          const runner = await runnerFor(lower, mode);
          const target = { protocol: stream.protocol, model: modelFor(stream, mode) };
          for (let index = 0; index < SERVER_WARMUP_STREAMS; index += 1) await runner.run(target);
        }
      }
    }
    for (const stream of streams) {
      const applicable = candidates.filter((candidate) => candidate.protocols.includes(stream.protocol));
      for (const mode of options.modes) {
        const contenders = [];
        for (const candidate of applicable) contenders.push({ candidate, runner: await runnerFor(candidate, mode) });
        const measurement = await measureCase(
          { protocol: stream.protocol, model: modelFor(stream, mode) },
          contenders,
          options.settings,
        );
        const result = toCaseResult(stream.id, stream.protocol, mode, measurement);
        cases.push(result);
        const summary = result.results.map((entry) => `${entry.id} ${entry.usPerEvent.toFixed(2)}`).join(', ');
        log(`  ${stream.id}/${mode}: ${result.events} events; µs/event ${summary}`);
        for (const failure of result.failed) log(`  ${stream.id}/${mode}: ${failure.id} FAILED: ${failure.error}`);
      }
    }
  } finally {
    for (const runner of runners.values()) await runner.close?.().catch(() => undefined);
    await servers.close();
    process.off('exit', killServer);
  }

  const registered = new Set(ADAPTERS.flatMap((candidate) => candidate.protocols));
  const missingAdapters = ALL_PROTOCOLS.filter((protocol) => !registered.has(protocol));
  out(`\n${formatTable(cases)}\n\n`);
  const summary = formatSummary(cases);
  if (summary !== '') out(`${summary}\n`);
  if (missingAdapters.length > 0) out(`Adapters not in the registry: ${missingAdapters.join(', ')}\n`);
  const seconds = (Date.now() - started) / 1000;
  out(
    `(${seconds.toFixed(0)} s; client CPU per wire event, median of ${options.settings.rounds} rounds; ` +
      `${options.bundle ? 'esbuild bundle' : 'tsx'})\n`,
  );

  if (options.jsonPath !== undefined) {
    const path = resolve(options.jsonPath);
    const report = {
      generatedAt: new Date().toISOString(),
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: availableParallelism(),
      quick: options.quick,
      settings: options.settings,
      bundled: options.bundle,
      unit: 'client CPU microseconds (user + system) per wire event',
      cases,
      missingAdapters,
    };
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, `${JSON.stringify(report, null, 2)}\n`);
    log(`wrote ${path}`);
  }
}
