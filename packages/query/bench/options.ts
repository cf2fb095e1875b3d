import { parseArgs } from 'node:util';
import { BenchUsageError, list, positive } from '../../../scripts/bench-kit/options.js';

/** Usage text of `pnpm --filter @boxagnts/query bench`. */
export const USAGE = `Usage: pnpm --filter @boxagnts/query bench [-- options]

Loop overhead of @boxagnts/query against a plain for-loop and peer agent loops (pi-agent-core, the
AI SDK's generateText and streamText, @openai/agents), all on the same in-process scripted model
that answers at once: 10 echo tool turns and a text answer.

Options:
  --quick              fewer rounds, 200 runs in flight, 5 histories (about a third of the time; noisier)
  --candidate <id>     only these candidates (repeatable or comma-separated): an id (boxagnts,
                       boxagnts:bare, pi-agent-core, ai:generateText, ai:streamText, openai-agents)
                       or a prefix before ':' (ai); the for-loop baseline always runs
  --stage <name>       only these stages: time, heap, history (repeatable or comma-separated)
  --rounds <n>         timed rounds (every candidate takes one turn per round)
  --turn-ms <n>        target wall time of one candidate's turn in a round
  --in-flight <n>      runs held in flight at once for the heap stage (default 1000; slow peers
                       hold fewer, at least 100, to keep the stage short)
  --histories <n>      finished 100-turn histories kept for the history stage (default 20, at least
                       3; slow peers keep fewer)
  --no-bundle          run the sources under tsx instead of an esbuild bundle (tsx's keepNames
                       adds a name-setting call per closure created, which skews closure-heavy code)
  --help               show this text

Where @boxagnts/query's time goes:
  --breakdown          time the parts of a run (session store append, cost lookup, tool execution,
                       stream assembly, ...) each alone, scaled to µs per turn

Profiling one candidate (alone, V8 sampling profiler around the measured runs only):
  --profile <id>       e.g. boxagnts
  --profile-runs <n>   runs while profiling (default 3000)
  --profile-out <path> also write the .cpuprofile (Chrome DevTools, speedscope)`;

export { BenchUsageError };

/** The stages of a bench run. */
export const STAGES = ['time', 'heap', 'history'] as const;
export type Stage = (typeof STAGES)[number];

/** Settings of the timed stage. */
export interface TimeSettings {
  /** Minimum warm-up runs per candidate (and at least `warmupMs` of them). */
  warmupRuns: number;
  warmupMs: number;
  rounds: number;
  turnMs: number;
  /** Target wall time of one CPU sample (a batch of runs). */
  batchMs: number;
}

/** The parsed command line. */
export interface BenchOptions {
  help: boolean;
  quick: boolean;
  candidates: string[];
  stages: Stage[];
  time: TimeSettings;
  inFlight: number;
  histories: number;
  bundle: boolean;
  /** Internal: this process is the child that runs the heap stages of this candidate and reports over IPC. */
  memoryChild: string | undefined;
  /** Time the parts of a @boxagnts/query run alone instead of running the bench. */
  breakdown: boolean;
  profile: { candidate: string; runs: number; out: string | undefined } | undefined;
}

const FULL: TimeSettings = { warmupRuns: 300, warmupMs: 500, rounds: 16, turnMs: 150, batchMs: 10 };
const QUICK: TimeSettings = { warmupRuns: 150, warmupMs: 250, rounds: 6, turnMs: 100, batchMs: 10 };

/** Parses `argv` (without node and the script; a leading `--` from pnpm is ignored). */
export function parseOptions(argv: readonly string[]): BenchOptions {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv.filter((argument) => argument !== '--')).values;
  } catch (error) {
    throw new BenchUsageError((error as Error).message);
  }
  const quick = values.quick ?? false;
  const base = quick ? QUICK : FULL;
  const stages = list(values.stage);
  for (const stage of stages) {
    if (!(STAGES as readonly string[]).includes(stage)) {
      throw new BenchUsageError(`--stage must be one of ${STAGES.join(', ')}, not "${stage}"`);
    }
  }
  return {
    help: values.help ?? false,
    quick,
    candidates: list(values.candidate),
    stages: stages.length === 0 ? [...STAGES] : (stages as Stage[]),
    time: {
      ...base,
      rounds: positive('rounds', values.rounds, base.rounds),
      turnMs: positive('turn-ms', values['turn-ms'], base.turnMs),
    },
    inFlight: positive('in-flight', values['in-flight'], quick ? 200 : 1000),
    histories: Math.max(3, positive('histories', values.histories, quick ? 5 : 20)),
    bundle: !(values['no-bundle'] ?? false),
    memoryChild: values['memory-child'],
    breakdown: values.breakdown ?? false,
    profile:
      values.profile === undefined
        ? undefined
        : {
            candidate: values.profile,
            runs: positive('profile-runs', values['profile-runs'], 3000),
            out: values['profile-out'],
          },
  };
}

/** Whether a candidate passes the `--candidate` filters (none given: everything passes). */
export function candidateSelected(id: string, filters: readonly string[]): boolean {
  if (filters.length === 0) return true;
  return filters.some((filter) => filter === id || id.startsWith(`${filter}:`));
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      quick: { type: 'boolean' },
      candidate: { type: 'string', multiple: true },
      stage: { type: 'string', multiple: true },
      rounds: { type: 'string' },
      'turn-ms': { type: 'string' },
      'in-flight': { type: 'string' },
      histories: { type: 'string' },
      'no-bundle': { type: 'boolean' },
      'memory-child': { type: 'string' },
      breakdown: { type: 'boolean' },
      profile: { type: 'string' },
      'profile-runs': { type: 'string' },
      'profile-out': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
