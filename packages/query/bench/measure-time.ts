import { median, quantile, spread } from '../../../scripts/bench-kit/stats.js';
import type { Candidate, PreparedTask } from './candidate.js';
import type { TimeSettings } from './options.js';
import { TASK_TOOL_TURNS } from './script.js';
import { checkedRun, checkResult, describeError } from './verify.js';

/** Model calls of the timed task: the tool turns and the answer. */
export const TASK_TURNS = TASK_TOOL_TURNS + 1;

/** One candidate's timing. */
export interface TimeResult {
  id: string;
  /** Wall time per turn of single runs: median and 99th percentile, µs. */
  wallPerTurn: number;
  wallP99PerTurn: number;
  /** Half the interquartile range of the single runs' wall times, relative to the median. */
  spread: number;
  /**
   * Process CPU per turn (user + system of every thread, so GC and JIT helper threads count, which
   * can put it above the wall time): median over batches, µs.
   */
  cpuPerTurn: number;
  /** Median wall µs per run of each round, in round order (ratios are taken round by round). */
  roundWallPerRun: number[];
  runs: number;
  /** Events the caller consumed per run. */
  eventsPerRun: number;
}

/** A candidate that could not be timed, and why. */
export interface Failure {
  id: string;
  error: string;
}

interface Contender {
  candidate: Candidate;
  prepared: PreparedTask;
  runsPerBatch: number;
  batchesPerTurn: number;
  batchSamples: number[];
  wall: number[];
  roundWallPerRun: number[];
  eventsPerRun: number;
}

function microseconds(usage: NodeJS.CpuUsage): number {
  return usage.user + usage.system;
}

async function prepareContender(candidate: Candidate, settings: TimeSettings): Promise<Contender> {
  const prepared = await candidate.prepare({ toolTurns: TASK_TOOL_TURNS });
  const first = await checkedRun(prepared, TASK_TOOL_TURNS);
  const started = performance.now();
  let runs = 0;
  while (runs < settings.warmupRuns || performance.now() - started < settings.warmupMs) {
    checkResult(await prepared.run(), TASK_TOOL_TURNS);
    runs++;
  }
  // Sized on warm code: the last tenth of the warm-up again.
  const calibration = Math.max(3, Math.ceil(runs / 10));
  const calibrated = performance.now();
  for (let index = 0; index < calibration; index++) checkResult(await prepared.run(), TASK_TOOL_TURNS);
  const wallPerRun = (performance.now() - calibrated) / calibration;
  const runsPerBatch = Math.max(1, Math.round(settings.batchMs / wallPerRun));
  const batchesPerTurn = Math.max(1, Math.round(settings.turnMs / (runsPerBatch * wallPerRun)));
  return {
    candidate,
    prepared,
    runsPerBatch,
    batchesPerTurn,
    batchSamples: [],
    wall: [],
    roundWallPerRun: [],
    eventsPerRun: first.events,
  };
}

async function takeTurn(contender: Contender): Promise<void> {
  const { prepared, runsPerBatch } = contender;
  const wall: number[] = [];
  for (let batch = 0; batch < contender.batchesPerTurn; batch++) {
    const cpuStart = process.cpuUsage();
    for (let index = 0; index < runsPerBatch; index++) {
      const wallStart = performance.now();
      const result = await prepared.run();
      wall.push(performance.now() - wallStart);
      checkResult(result, TASK_TOOL_TURNS);
    }
    contender.batchSamples.push(microseconds(process.cpuUsage(cpuStart)) / runsPerBatch);
  }
  // A loop, not a spread: a fast candidate's turn holds over 100,000 samples, past the argument limit.
  for (const sample of wall) contender.wall.push(sample);
  contender.roundWallPerRun.push(median(wall) * 1000);
}

/**
 * Times the task of 10 tool turns and an answer for each candidate: a warm-up (which also sizes the
 * batches), then rounds in which every candidate takes one turn of batches, in an order that rotates
 * each round so drift (other load, GC pressure) spreads over all of them. Each run's wall time is
 * a sample (median, p99, and the round's median for ratios); each batch's process CPU divided by its
 * runs is the CPU sample.
 */
export async function measureTime(
  candidates: readonly Candidate[],
  settings: TimeSettings,
  log: (message: string) => void,
): Promise<{ results: TimeResult[]; failed: Failure[] }> {
  const contenders: Contender[] = [];
  const failed: Failure[] = [];
  for (const candidate of candidates) {
    try {
      const contender = await prepareContender(candidate, settings);
      contenders.push(contender);
      log(
        `  warmed up ${candidate.id}: batches of ${contender.runsPerBatch} run(s), ${contender.batchesPerTurn} per turn`,
      );
    } catch (error) {
      failed.push({ id: candidate.id, error: describeError(error) });
    }
  }
  let active = [...contenders];
  for (let round = 0; round < settings.rounds; round++) {
    for (let turn = 0; turn < active.length; turn++) {
      const contender = active[(round + turn) % active.length] as Contender;
      try {
        await takeTurn(contender);
      } catch (error) {
        failed.push({ id: contender.candidate.id, error: describeError(error) });
        contender.roundWallPerRun = [];
      }
    }
    active = active.filter((contender) => contender.roundWallPerRun.length === round + 1);
  }
  const results = active.map(
    (contender): TimeResult => ({
      id: contender.candidate.id,
      wallPerTurn: (median(contender.wall) * 1000) / TASK_TURNS,
      wallP99PerTurn: (quantile(contender.wall, 0.99) * 1000) / TASK_TURNS,
      spread: spread(contender.wall),
      cpuPerTurn: median(contender.batchSamples) / TASK_TURNS,
      roundWallPerRun: contender.roundWallPerRun,
      runs: contender.wall.length,
      eventsPerRun: contender.eventsPerRun,
    }),
  );
  return { results, failed };
}
