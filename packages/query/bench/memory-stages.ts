import { fork } from 'node:child_process';
import type { Candidate } from './candidate.js';
import { type MemoryResult, measureHistory, measureInFlight } from './measure-memory.js';
import type { Failure } from './measure-time.js';
import type { BenchOptions } from './options.js';

/** What the heap stages measured. */
export interface MemoryResults {
  inFlight: MemoryResult[] | undefined;
  history: MemoryResult[] | undefined;
  failed: Failure[];
}

/** Runs the selected heap stages for `candidates` in this process. */
export async function runMemoryStages(
  candidates: readonly Candidate[],
  options: BenchOptions,
  log: (message: string) => void,
): Promise<MemoryResults> {
  const results: MemoryResults = { inFlight: undefined, history: undefined, failed: [] };
  if (options.stages.includes('heap')) {
    const inFlight = await measureInFlight(candidates, options.inFlight, log);
    results.inFlight = inFlight.results;
    results.failed.push(...inFlight.failed.map((failure) => ({ ...failure, id: `${failure.id} (heap)` })));
  }
  if (options.stages.includes('history')) {
    const history = await measureHistory(candidates, options.histories, log);
    results.history = history.results;
    results.failed.push(...history.failed.map((failure) => ({ ...failure, id: `${failure.id} (history)` })));
  }
  return results;
}

/**
 * Runs the heap stages of one candidate in a child process of its own (so nothing a candidate
 * leaves behind weighs on the next one's collections) without the optimizing compilers
 * (`--no-opt --no-maglev`; the interpreter and the baseline compiler stay on). Optimized code comes
 * with metadata on the heap that the JIT creates and drops at its own pace, moving the heap by
 * hundreds of KiB between two forced collections; object layouts, and so what a run holds, do not
 * depend on the tier. The child is this same script (bundle or tsx entry) with `--memory-child`.
 */
export function runMemoryChild(argv: readonly string[], candidate: Candidate): Promise<MemoryResults> {
  const script = process.argv[1];
  if (script === undefined) return Promise.reject(new Error('bench: cannot tell which script to fork'));
  const child = fork(script, [...argv, '--memory-child', candidate.id], {
    execArgv: [...process.execArgv, '--no-opt', '--no-maglev'],
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let results: MemoryResults | undefined;
    child.once('message', (message) => {
      results = message as MemoryResults;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (results !== undefined) resolve(results);
      else reject(new Error(`bench: the heap stages' process of ${candidate.id} exited with ${code} before reporting`));
    });
  });
}

/** Runs the heap stages for each candidate in its own child process, one after another, and merges the results. */
export async function runMemoryChildren(
  argv: readonly string[],
  candidates: readonly Candidate[],
  options: BenchOptions,
  log: (message: string) => void,
): Promise<MemoryResults> {
  log(
    `heap: up to ${options.inFlight} runs in flight, up to ${options.histories} finished 100-turn histories, one process per candidate...`,
  );
  const merged: MemoryResults = {
    inFlight: options.stages.includes('heap') ? [] : undefined,
    history: options.stages.includes('history') ? [] : undefined,
    failed: [],
  };
  for (const candidate of candidates) {
    try {
      const results = await runMemoryChild(argv, candidate);
      merged.inFlight?.push(...(results.inFlight ?? []));
      merged.history?.push(...(results.history ?? []));
      merged.failed.push(...results.failed);
    } catch (error) {
      merged.failed.push({
        id: `${candidate.id} (heap)`,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return merged;
}
