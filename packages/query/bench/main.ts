import { availableParallelism, loadavg } from 'node:os';
import { runBreakdown } from './breakdown.js';
import type { Candidate } from './candidate.js';
import { CANDIDATES } from './candidates.js';
import { measureTime } from './measure-time.js';
import { runMemoryChildren, runMemoryStages } from './memory-stages.js';
import { type BenchOptions, BenchUsageError, candidateSelected, parseOptions, USAGE } from './options.js';
import { runProfile } from './profile.js';
import { type BenchResults, formatNotes, formatResults } from './report.js';

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
    if (options.memoryChild !== undefined) {
      const id = options.memoryChild;
      const results = await runMemoryStages(
        CANDIDATES.filter((candidate) => candidate.id === id),
        options,
        log,
      );
      await new Promise<void>((resolve, reject) => {
        process.send?.(results, (error: Error | null) => (error ? reject(error) : resolve()));
      });
    } else if (options.breakdown) {
      await runBreakdown(out, options.quick);
      out('\n');
    } else if (options.profile !== undefined) await runProfile(options.profile, out);
    else await measureAll(argv, options);
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

function selectCandidates(options: BenchOptions): Candidate[] {
  const candidates = CANDIDATES.filter(
    (candidate) => candidate.kind === 'baseline' || candidateSelected(candidate.id, options.candidates),
  );
  if (candidates.length === 1 && options.candidates.length > 0) {
    throw new BenchUsageError(
      `no candidate matches --candidate ${options.candidates.join(',')}; candidates: ${CANDIDATES.map((c) => c.id).join(', ')}`,
    );
  }
  return candidates;
}

async function measureAll(argv: readonly string[], options: BenchOptions): Promise<void> {
  const candidates = selectCandidates(options);
  const load = loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
  log(
    `node ${process.version}, ${availableParallelism()} CPUs, load average ${load}${options.quick ? ', --quick' : ''}`,
  );
  const started = Date.now();
  const results: BenchResults = { candidates, time: undefined, inFlight: undefined, history: undefined, failed: [] };
  if (options.stages.includes('time')) {
    log(`timing (${options.time.rounds} rounds of ~${options.time.turnMs} ms per candidate)...`);
    const time = await measureTime(candidates, options.time, log);
    results.time = time.results;
    results.failed.push(...time.failed);
  }
  if (options.stages.includes('heap') || options.stages.includes('history')) {
    const memory = await runMemoryChildren(argv, candidates, options, log);
    results.inFlight = memory.inFlight;
    results.history = memory.history;
    results.failed.push(...memory.failed);
  }
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  out(`${formatResults(results)}\n\n${formatNotes(results, options.inFlight, options.histories)}\n`);
}
