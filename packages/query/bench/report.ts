import { median } from '../../../scripts/bench-kit/stats.js';
import type { Candidate } from './candidate.js';
import type { MemoryResult } from './measure-memory.js';
import type { Failure, TimeResult } from './measure-time.js';

/** The goals of @boxagnts/query (issue 18): with every mechanism on, and with defaults only. */
export const GOALS = { microsecondsPerTurn: 6, kibPerInFlightRun: 10, defaultsMicrosecondsPerTurn: 4 } as const;

/** Figures measured by the issue's author on a quiet machine with such a scripted model (µs per turn, KiB per in-flight run). */
const REFERENCE =
  'for-loop 0.45 µs; pi-agent-core 18 µs, 17 KiB; ai:generateText 128 µs, 82 KiB; openai-agents 226 µs, 40 KiB; ai:streamText 579 µs, 144 KiB';

const BASELINE_ID = 'for-loop';
const OURS_ID = 'boxagnts';
const DEFAULTS_ID = 'boxagnts:bare';

/** Everything a bench run measured. */
export interface BenchResults {
  candidates: readonly Candidate[];
  time: TimeResult[] | undefined;
  inFlight: MemoryResult[] | undefined;
  history: MemoryResult[] | undefined;
  failed: Failure[];
}

/** Median over rounds of `a / b` in the same round. */
function roundRatio(a: TimeResult | undefined, b: TimeResult | undefined): number | undefined {
  if (a === undefined || b === undefined) return undefined;
  const ratios = a.roundWallPerRun.map((value, round) => value / (b.roundWallPerRun[round] ?? Number.NaN));
  return median(ratios.filter(Number.isFinite));
}

function fixed(value: number | undefined, digits: number): string {
  return value === undefined || !Number.isFinite(value) ? '-' : value.toFixed(digits);
}

function significant(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '-';
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function byId<T extends { id: string }>(list: readonly T[] | undefined, id: string): T | undefined {
  return list?.find((entry) => entry.id === id);
}

function kib(result: MemoryResult | undefined): number | undefined {
  return result === undefined ? undefined : result.bytesPer / 1024;
}

function memoryRatio(list: readonly MemoryResult[] | undefined, id: string): number | undefined {
  const ours = kib(byId(list, OURS_ID));
  const mine = kib(byId(list, id));
  return ours === undefined || mine === undefined || ours <= 0 ? undefined : mine / ours;
}

function table(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/** The results table: one row per candidate, time and memory side by side, with ratios. */
export function formatResults(results: BenchResults): string {
  const baseline = byId(results.time, BASELINE_ID);
  const ours = byId(results.time, OURS_ID);
  const rows = results.candidates.map((candidate) => {
    const time = byId(results.time, candidate.id);
    return [
      candidate.id,
      significant(time?.wallPerTurn),
      time === undefined ? '-' : `${(time.spread * 100).toFixed(0)}%`,
      significant(time?.wallP99PerTurn),
      significant(time?.cpuPerTurn),
      fixed(roundRatio(time, baseline), 1),
      fixed(roundRatio(time, ours), 2),
      fixed(kib(byId(results.inFlight, candidate.id)), 1),
      fixed(memoryRatio(results.inFlight, candidate.id), 2),
      fixed(kib(byId(results.history, candidate.id)), 1),
      fixed(memoryRatio(results.history, candidate.id), 2),
    ];
  });
  const header = [
    'candidate',
    'µs/turn',
    '±',
    'p99',
    'CPU µs/turn',
    '× for-loop',
    '× boxagnts',
    'KiB/in-flight run',
    '× boxagnts',
    'KiB/100-turn history',
    '× boxagnts',
  ];
  const failures = results.failed.map((failure) => `  ${failure.id} failed: ${failure.error}`);
  return [table(header, rows), ...(failures.length > 0 ? ['', ...failures] : [])].join('\n');
}

function counts(list: readonly MemoryResult[] | undefined): string {
  const fewer = list?.filter((entry, _index, all) => entry.count < Math.max(...all.map((other) => other.count)));
  if (list === undefined || fewer === undefined || fewer.length === 0) return 'every candidate the same';
  return `fewer for slow peers: ${fewer.map((entry) => `${entry.id} ${entry.count}`).join(', ')}`;
}

/** What was run, how to read the columns, and whether ours meets its goals. */
export function formatNotes(results: BenchResults, inFlight: number, histories: number): string {
  const described = results.candidates.map((candidate) => `  ${candidate.id.padEnd(16)} ${candidate.description}`);
  const time = byId(results.time, OURS_ID);
  const defaults = byId(results.time, DEFAULTS_ID);
  const heap = kib(byId(results.inFlight, OURS_ID));
  const verdict = (value: number | undefined, goal: number, unit: string) =>
    value === undefined ? 'not measured' : `${significant(value)} ${unit} (${value <= goal ? 'ok' : 'MISSED'})`;
  const events = results.time?.map((entry) => `${entry.id} ${entry.eventsPerRun}`).join(', ');
  return [
    'Candidates:',
    ...described,
    '',
    'µs/turn: wall time of a run of 10 tool turns and an answer, divided by its 11 model calls: median',
    'over single runs (± half the interquartile range), p99 the 99th percentile. CPU µs/turn: process',
    'CPU per call, median over batches of runs; GC and JIT helper threads count, so it can exceed the',
    'wall time. × for-loop / × boxagnts: median over rounds of the same-round ratio of wall medians',
    '(above 1 = slower, or more memory, than the column named).',
    `KiB/in-flight run: heap held per run with up to ${inFlight} runs held in their 11th model call (${counts(results.inFlight)}),`,
    'slope of heap after a full GC over runs in flight. KiB/100-turn history: heap held per kept history of 100',
    `model calls (99 tool turns and the answer), slope over up to ${histories} kept (${counts(results.history)}).`,
    'Heap stages run without the optimizing compilers (see memory-stages.ts); machine code is not counted.',
    ...(events === undefined ? [] : [`Events consumed per run: ${events}.`]),
    '',
    `Goals for boxagnts (every mechanism on): <= ${GOALS.microsecondsPerTurn} µs/turn: ${verdict(time?.wallPerTurn, GOALS.microsecondsPerTurn, 'µs')}; ` +
      `<= ${GOALS.kibPerInFlightRun} KiB per in-flight run: ${verdict(heap, GOALS.kibPerInFlightRun, 'KiB')}. ` +
      `For boxagnts:bare (defaults): <= ${GOALS.defaultsMicrosecondsPerTurn} µs/turn: ${verdict(defaults?.wallPerTurn, GOALS.defaultsMicrosecondsPerTurn, 'µs')}.`,
    `Reference (issue, a quiet machine): ${REFERENCE}. Absolute numbers depend on the machine and its load; compare ratios.`,
  ].join('\n');
}
