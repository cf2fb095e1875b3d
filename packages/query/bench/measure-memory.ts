import { getHeapSpaceStatistics } from 'node:v8';
import { slope } from '../../../scripts/bench-kit/stats.js';
import type { Candidate, PreparedTask, RunResult } from './candidate.js';
import type { Failure } from './measure-time.js';
import { createHold, HISTORY_TOOL_TURNS, TASK_TOOL_TURNS } from './script.js';
import { checkedRun, checkResult, describeError } from './verify.js';

/**
 * The model call (0-based turn) at which in-flight runs are held: the 11th, the answer, after all
 * ten tool turns, where a run holds the most (the whole history, every stored entry and usage record).
 */
export const HOLD_TURN = TASK_TOOL_TURNS;
const WARMUP_IN_FLIGHT = 50;
/** In-flight runs are started in this many equal steps, the heap measured after each. */
const IN_FLIGHT_STEPS = 5;
/**
 * Wall time a peer's heap stage should take: slow peers hold fewer runs (at least 100) and keep
 * fewer histories (at least 3), which changes the per-run figure little. Ours and the baseline
 * always get the full counts, since the goal is stated for 1,000 runs in flight.
 */
const PEER_BUDGET_MS = 6000;
const MIN_PEER_IN_FLIGHT = 100;
const MIN_HISTORIES = 3;

function countFor(candidate: Candidate, wanted: number, msPerUnit: number, minimum: number): number {
  if (candidate.kind !== 'peer') return wanted;
  return Math.min(wanted, Math.max(minimum, Math.floor(PEER_BUDGET_MS / msPerUnit)));
}

/** Heap a candidate holds per unit (per in-flight run, or per kept history), in bytes. */
export interface MemoryResult {
  id: string;
  bytesPer: number;
  count: number;
}

/** Spaces of compiled machine code: the JIT fills them at its own pace, so they are left out. */
const CODE_SPACES = new Set(['code_space', 'code_large_object_space']);

/** Bytes of live objects after a full GC, machine code excluded. */
function heapUsed(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('the heap stages need node --expose-gc (run.ts starts node with it)');
  gc();
  gc();
  let used = 0;
  for (const space of getHeapSpaceStatistics()) if (!CODE_SPACES.has(space.space_name)) used += space.space_used_size;
  return used;
}

interface Step {
  prepared: PreparedTask;
  hold: ReturnType<typeof createHold>;
  runs: Array<Promise<RunResult>>;
}

/** Starts a step's runs; resolves once all wait at the hold (throws if one ends before it). */
async function startStep(step: Step, count: number): Promise<void> {
  for (let index = 0; index < count; index++) step.runs[index] = step.prepared.run();
  // A run that ends before the hold would leave `all` pending forever: surface it instead.
  const ended = Promise.race(step.runs).then(
    () => 'ended' as const,
    () => 'failed' as const,
  );
  const first = await Promise.race([step.hold.all.then(() => 'held' as const), ended]);
  if (first !== 'held') throw new Error(`a run ${first} before reaching the hold at turn ${HOLD_TURN}`);
}

/**
 * Holds `steps x perStep` runs in flight, measuring the heap (after a full GC) after each step;
 * resolves to the points (runs in flight, heap) and releases and checks every run. There is no
 * point at zero runs: the first measurement after warm-up is off by what the warm-up left behind
 * (up to tens of KiB, released once the next runs start).
 */
async function inFlightPoints(candidate: Candidate, steps: number, perStep: number): Promise<Array<[number, number]>> {
  const plan: Step[] = [];
  for (let index = 0; index < steps; index++) {
    const hold = createHold(HOLD_TURN, perStep);
    const prepared = await candidate.prepare({ toolTurns: TASK_TOOL_TURNS, hold: hold.hold });
    plan.push({ prepared, hold, runs: new Array(perStep) });
  }
  const points: Array<[number, number]> = [];
  try {
    for (const [index, step] of plan.entries()) {
      await startStep(step, perStep);
      points.push([(index + 1) * perStep, heapUsed()]);
    }
  } finally {
    for (const step of plan) step.hold.release();
  }
  for (const step of plan) for (const result of await Promise.all(step.runs)) checkResult(result, TASK_TOOL_TURNS);
  return points;
}

/**
 * Heap held per in-flight run: runs of the 10-tool-turn task are started in steps and held inside
 * their 11th model call (all ten tool turns done); the heap after a full GC (machine code left out)
 * is taken after each step, and the figure is the slope of heap over runs in flight, so one-time
 * allocations do not count. A small batch first warms up the code paths.
 */
export async function measureInFlight(
  candidates: readonly Candidate[],
  count: number,
  log: (message: string) => void,
): Promise<{ results: MemoryResult[]; failed: Failure[] }> {
  const results: MemoryResult[] = [];
  const failed: Failure[] = [];
  for (const candidate of candidates) {
    try {
      const started = performance.now();
      await inFlightPoints(candidate, 1, WARMUP_IN_FLIGHT);
      const msPerRun = (performance.now() - started) / WARMUP_IN_FLIGHT;
      const perStep = Math.max(
        1,
        Math.round(countFor(candidate, count, msPerRun, MIN_PEER_IN_FLIGHT) / IN_FLIGHT_STEPS),
      );
      const points = await inFlightPoints(candidate, IN_FLIGHT_STEPS, perStep);
      const bytesPer = slope(points);
      results.push({ id: candidate.id, bytesPer, count: perStep * IN_FLIGHT_STEPS });
      log(
        `  ${candidate.id}: ${(bytesPer / 1024).toFixed(1)} KiB per in-flight run (${perStep * IN_FLIGHT_STEPS} in flight)`,
      );
    } catch (error) {
      failed.push({ id: candidate.id, error: describeError(error) });
    }
  }
  return { results, failed };
}

/**
 * Heap held per finished 100-turn history (99 tool turns and the answer): `count` runs are made one
 * after another and only what the caller keeps to continue the conversation is retained (each
 * candidate's `history`); the heap after a full GC is taken after each, and the figure is the slope
 * of heap over histories kept (from the first kept one on: see {@link inFlightPoints}).
 */
export async function measureHistory(
  candidates: readonly Candidate[],
  count: number,
  log: (message: string) => void,
): Promise<{ results: MemoryResult[]; failed: Failure[] }> {
  const results: MemoryResult[] = [];
  const failed: Failure[] = [];
  for (const candidate of candidates) {
    try {
      const prepared = await candidate.prepare({ toolTurns: HISTORY_TOOL_TURNS });
      const started = performance.now();
      for (let index = 0; index < 3; index++) await checkedRun(prepared, HISTORY_TOOL_TURNS);
      const kept: unknown[] = new Array(countFor(candidate, count, (performance.now() - started) / 3, MIN_HISTORIES));
      const points: Array<[number, number]> = [];
      for (let index = 0; index < kept.length; index++) {
        const result = await prepared.run();
        checkResult(result, HISTORY_TOOL_TURNS);
        kept[index] = result.history;
        points.push([index + 1, heapUsed()]);
      }
      const bytesPer = slope(points);
      results.push({ id: candidate.id, bytesPer, count: kept.length });
      log(`  ${candidate.id}: ${(bytesPer / 1024).toFixed(1)} KiB per 100-turn history (${kept.length} kept)`);
    } catch (error) {
      failed.push({ id: candidate.id, error: describeError(error) });
    }
  }
  return { results, failed };
}
