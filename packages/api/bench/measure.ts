import { subscribe } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import type { Candidate, ConsumedStream, Runner, StreamTarget } from './candidate.js';

/** How long and how often to measure each candidate on each (stream, mode). */
export interface MeasureSettings {
  /** Whole streams consumed before measuring (JIT warm-up, connection pool filled). */
  warmupStreams: number;
  /** Measured rounds; candidates take turns within each round, in rotating order. */
  rounds: number;
  /** Target wall time of one candidate's turn in a round; sets how many streams a turn consumes. */
  turnMs: number;
  /** Fewest streams per turn. */
  minStreamsPerTurn: number;
}

/** One candidate on one (stream, mode). */
export interface CandidateMeasurement {
  id: string;
  kind: Candidate['kind'];
  /** Median over rounds of client CPU (user + system) per wire event, in microseconds. */
  usPerEvent: number;
  /** Interquartile range of the rounds relative to the median (0.05 = ±2.5%). */
  spread: number;
  /** Every round's µs/event, in round order. */
  samples: number[];
  /**
   * Median over rounds of this candidate's µs/event divided by the lower bound's in the same round
   * (pairing by round cancels most drift between rounds).
   */
  ratio: number;
  streamsPerTurn: number;
  /**
   * New TCP connections per 100 measured streams (undici's `undici:client:connected` channel, which
   * Node's built-in fetch publishes too). About 0 when the pool reuses its connection; a client that
   * stops reading at the terminal event before the body has ended gets its socket destroyed, and
   * pays for a new connection (over TLS, a handshake) on the next call.
   */
  connectionsPer100Streams: number;
  /** Median wall time of one whole stream, in milliseconds (bounded by the server in `event` mode). */
  wallMsPerStream: number;
}

/** A candidate that could not be measured: it threw, or assembled a different text than the lower bound. */
export interface CandidateFailure {
  id: string;
  kind: Candidate['kind'];
  error: string;
}

/** Everything measured on one (stream, mode). */
export interface CaseMeasurement {
  events: number;
  /** Mean body chunks the lower bound read per stream (how the writes arrived). */
  readsPerStream: number;
  measured: CandidateMeasurement[];
  failed: CandidateFailure[];
}

interface Contender {
  candidate: Candidate;
  runner: Runner;
  samples: number[];
  streamsPerTurn: number;
  wallMs: number[];
  connections: number;
}

let connectionsOpened = 0;
subscribe('undici:client:connected', () => {
  connectionsOpened += 1;
});

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (position - low);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function sameText(actual: ConsumedStream, expected: ConsumedStream): string | undefined {
  if (actual.text === expected.text && actual.reasoning === expected.reasoning) return undefined;
  return (
    `assembled ${actual.text.length} text + ${actual.reasoning.length} reasoning chars, the lower bound ` +
    `${expected.text.length} + ${expected.reasoning.length}`
  );
}

/**
 * Measures client CPU per event for each runner on one (stream, mode). The first runner must be the
 * lower bound: its first stream is the reference every other candidate's text is checked against.
 * Each runner is warmed up, then the rounds interleave the runners (rotating who goes first) so that
 * drift (thermal, other load, GC pressure building up) spreads over all of them.
 */
export async function measureCase(
  target: StreamTarget,
  runners: ReadonlyArray<{ candidate: Candidate; runner: Runner }>,
  settings: MeasureSettings,
): Promise<CaseMeasurement> {
  const [reference, ...others] = runners;
  if (reference?.candidate.kind !== 'lower-bound') throw new Error('measureCase: the lower bound must come first');
  const expected = await reference.runner.run(target);
  const events = expected.events ?? 0;
  if (events === 0) throw new Error(`no events in ${target.model}`);

  const contenders: Contender[] = [];
  const failed: CandidateFailure[] = [];
  for (const { candidate, runner } of [reference, ...others]) {
    try {
      const mismatch = sameText(await runner.run(target), expected);
      if (mismatch !== undefined) {
        failed.push({ id: candidate.id, kind: candidate.kind, error: mismatch });
        continue;
      }
      const started = performance.now();
      for (let index = 0; index < settings.warmupStreams; index += 1) await runner.run(target);
      const wallPerStream = (performance.now() - started) / Math.max(1, settings.warmupStreams);
      const streamsPerTurn = Math.max(settings.minStreamsPerTurn, Math.ceil(settings.turnMs / wallPerStream));
      contenders.push({ candidate, runner, samples: [], streamsPerTurn, wallMs: [], connections: 0 });
    } catch (error) {
      failed.push({ id: candidate.id, kind: candidate.kind, error: describe(error) });
    }
  }

  let reads = 0;
  let lowerBoundStreams = 0;
  for (let round = 0; round < settings.rounds; round += 1) {
    for (let turn = 0; turn < contenders.length; turn += 1) {
      const contender = contenders[(round + turn) % contenders.length];
      if (contender === undefined) continue;
      const isLowerBound = contender.candidate.kind === 'lower-bound';
      const connectionsBefore = connectionsOpened;
      const wallStart = performance.now();
      const cpuStart = process.cpuUsage();
      for (let index = 0; index < contender.streamsPerTurn; index += 1) {
        const consumed = await contender.runner.run(target);
        if (isLowerBound) reads += consumed.reads ?? 0;
      }
      const cpu = process.cpuUsage(cpuStart);
      contender.connections += connectionsOpened - connectionsBefore;
      contender.wallMs.push((performance.now() - wallStart) / contender.streamsPerTurn);
      contender.samples.push((cpu.user + cpu.system) / (contender.streamsPerTurn * events));
      if (isLowerBound) lowerBoundStreams += contender.streamsPerTurn;
    }
  }

  const lower = contenders.find((contender) => contender.candidate.kind === 'lower-bound')?.samples ?? [];
  const measured = contenders.map((contender): CandidateMeasurement => {
    const middle = median(contender.samples);
    const ratios = contender.samples.map((sample, round) => sample / (lower[round] ?? Number.NaN));
    return {
      id: contender.candidate.id,
      kind: contender.candidate.kind,
      usPerEvent: middle,
      spread: middle === 0 ? 0 : (quantile(contender.samples, 0.75) - quantile(contender.samples, 0.25)) / middle,
      samples: contender.samples,
      ratio: median(ratios),
      streamsPerTurn: contender.streamsPerTurn,
      connectionsPer100Streams: (contender.connections * 100) / (contender.streamsPerTurn * contender.samples.length),
      wallMsPerStream: median(contender.wallMs),
    };
  });
  return { events, readsPerStream: lowerBoundStreams === 0 ? 0 : reads / lowerBoundStreams, measured, failed };
}
