import { parseArgs } from 'node:util';
import { BenchUsageError, list, positive } from '../../../scripts/bench-kit/options.js';
import type { MeasureSettings } from './measure.js';
import { WRITE_MODES, type WriteMode } from './streams.js';

/** Usage text of `pnpm bench`. */
export const USAGE = `Usage: pnpm --filter @boxagnts/api bench [options]

Client CPU per stream event of the lower bound, the official SDKs and every adapter, on large
recorded and scripted streams served by the testkit's mock server in a child process.

Options:
  --quick              fewer rounds and shorter turns (about a third of the time; noisier)
  --stream <id>        only these streams (repeatable or comma-separated)
  --candidate <id>     only these candidates: an id (adapter:anthropic), a kind (sdk, adapter,
                       reference) or a prefix before ':' (repeatable or comma-separated); the lower
                       bound always runs; reference:fetch (a diagnostic) only when named
  --mode <mode>        only this write mode: event, 16k or paced (repeatable)
  --rounds <n>         measured rounds per (stream, mode)
  --turn-ms <n>        target wall time of one candidate's turn in a round
  --warmup <n>         streams consumed per candidate before measuring
  --json <path>        also write the results as JSON to this file
  --no-bundle          run the sources under tsx instead of an esbuild bundle (tsx's keepNames
                       adds a name-setting call per closure created, which skews closure-heavy code)
  --help               show this text

Profiling one candidate (alone, V8 sampling profiler around the measured streams only):
  --profile <id>       e.g. adapter:anthropic; with one --stream (and --mode, default 16k)
  --profile-streams <n>  streams consumed while profiling (default 400)
  --profile-out <path> also write the .cpuprofile (Chrome DevTools, speedscope)`;

export { BenchUsageError };

/** The parsed command line. */
export interface BenchOptions {
  help: boolean;
  quick: boolean;
  streams: string[];
  candidates: string[];
  modes: WriteMode[];
  settings: MeasureSettings;
  jsonPath: string | undefined;
  bundle: boolean;
  profile: { candidate: string; streams: number; out: string | undefined } | undefined;
}

const FULL: MeasureSettings = { warmupStreams: 12, rounds: 16, turnMs: 90, minStreamsPerTurn: 3 };
const QUICK: MeasureSettings = { warmupStreams: 5, rounds: 3, turnMs: 60, minStreamsPerTurn: 2 };

/** Parses `argv` (without node and the script). */
export function parseOptions(argv: readonly string[]): BenchOptions {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new BenchUsageError((error as Error).message);
  }
  const quick = values.quick ?? false;
  const base = quick ? QUICK : FULL;
  const modes = list(values.mode);
  for (const mode of modes) {
    if (!(WRITE_MODES as readonly string[]).includes(mode)) {
      throw new BenchUsageError(`--mode must be one of ${WRITE_MODES.join(', ')}, not "${mode}"`);
    }
  }
  return {
    help: values.help ?? false,
    quick,
    streams: list(values.stream),
    candidates: list(values.candidate),
    modes: modes.length === 0 ? (values.profile === undefined ? [...WRITE_MODES] : ['16k']) : (modes as WriteMode[]),
    settings: {
      warmupStreams: positive('warmup', values.warmup, base.warmupStreams),
      rounds: positive('rounds', values.rounds, base.rounds),
      turnMs: positive('turn-ms', values['turn-ms'], base.turnMs),
      minStreamsPerTurn: base.minStreamsPerTurn,
    },
    jsonPath: values.json,
    bundle: !(values['no-bundle'] ?? false),
    profile:
      values.profile === undefined
        ? undefined
        : {
            candidate: values.profile,
            streams: positive('profile-streams', values['profile-streams'], 400),
            out: values['profile-out'],
          },
  };
}

/** Whether a candidate id passes the `--candidate` filters (none given: everything passes). */
export function candidateSelected(id: string, kind: string, filters: readonly string[]): boolean {
  if (filters.length === 0) return kind !== 'reference';
  return filters.some((filter) => filter === id || filter === kind || id.startsWith(`${filter}:`));
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      quick: { type: 'boolean' },
      stream: { type: 'string', multiple: true },
      candidate: { type: 'string', multiple: true },
      mode: { type: 'string', multiple: true },
      rounds: { type: 'string' },
      'turn-ms': { type: 'string' },
      warmup: { type: 'string' },
      json: { type: 'string' },
      'no-bundle': { type: 'boolean' },
      profile: { type: 'string' },
      'profile-streams': { type: 'string' },
      'profile-out': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
