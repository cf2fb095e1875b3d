import type { CandidateFailure, CaseMeasurement } from './measure.js';
import type { BenchProtocol } from './protocols.js';
import type { WriteMode } from './streams.js';

/**
 * The goal for every adapter (issue #18): at most this many times the lower bound's CPU per event,
 * 1.2x when 16 KiB writes hold many events per read, 1.1x with one event per read (`event`, `paced`).
 */
export const ADAPTER_GOAL_RATIO: Readonly<Record<WriteMode, number>> = { '16k': 1.2, event: 1.1, paced: 1.1 };

function verdict(ratio: number, mode: WriteMode): string {
  const goal = ADAPTER_GOAL_RATIO[mode];
  return ratio <= goal ? 'ok' : `over ${goal}x`;
}

/** One measured candidate with its ratio to the lower bound. */
export interface ResultRow {
  id: string;
  kind: string;
  usPerEvent: number;
  /** Median of per-round ratios to the lower bound's µs/event on the same (stream, mode). */
  ratio: number;
  spread: number;
  samples: number[];
  streamsPerTurn: number;
  connectionsPer100Streams: number;
  wallMsPerStream: number;
}

/** Everything about one (stream, mode). */
export interface CaseResult {
  stream: string;
  protocol: BenchProtocol;
  mode: WriteMode;
  events: number;
  readsPerStream: number;
  results: ResultRow[];
  failed: CandidateFailure[];
}

/** Labels a measurement with its stream and mode. */
export function toCaseResult(
  stream: string,
  protocol: BenchProtocol,
  mode: WriteMode,
  measurement: CaseMeasurement,
): CaseResult {
  return {
    stream,
    protocol,
    mode,
    events: measurement.events,
    readsPerStream: measurement.readsPerStream,
    results: measurement.measured,
    failed: measurement.failed,
  };
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  return align === 'left' ? text.padEnd(width) : text.padStart(width);
}

/** The results as a plain-text table, one row per candidate, grouped by (stream, mode). */
export function formatTable(cases: readonly CaseResult[]): string {
  const header = ['stream', 'mode', 'events', 'reads', 'candidate', 'µs/event', '±', '× lower', 'conns', 'goal'];
  const align: Array<'left' | 'right'> = [
    'left',
    'left',
    'right',
    'right',
    'left',
    'right',
    'right',
    'right',
    'right',
    'left',
  ];
  const rows: string[][] = [];
  for (const entry of cases) {
    entry.results.forEach((result, index) => {
      const goal = result.kind !== 'adapter' ? '' : verdict(result.ratio, entry.mode);
      rows.push([
        index === 0 ? entry.stream : '',
        index === 0 ? entry.mode : '',
        index === 0 ? String(entry.events) : '',
        index === 0 ? entry.readsPerStream.toFixed(0) : '',
        result.id,
        result.usPerEvent.toFixed(2),
        `${((result.spread * 100) / 2).toFixed(0)}%`,
        result.ratio.toFixed(2),
        result.connectionsPer100Streams.toFixed(0),
        goal,
      ]);
    });
    for (const failure of entry.failed) {
      const error = failure.error.length > 100 ? `${failure.error.slice(0, 99)}…` : failure.error;
      rows.push(['', '', '', '', failure.id, 'failed', '', '', '', error]);
    }
  }
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => pad(cell, widths[column] ?? 0, align[column] ?? 'left'))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  const out: string[] = [line(header), rule];
  let previous: string | undefined;
  for (const row of rows) {
    if (row[0] !== '' && previous !== undefined && previous !== row[0]) out.push('');
    if (row[0] !== '') previous = row[0];
    out.push(line(row));
  }
  return out.join('\n');
}

/** Each adapter's worst ratio to its goal over every (stream, mode) it was measured on. */
export function formatSummary(cases: readonly CaseResult[]): string {
  const worst = new Map<string, { ratio: number; mode: WriteMode; where: string }>();
  for (const entry of cases) {
    for (const result of entry.results) {
      if (result.kind === 'lower-bound') continue;
      const previous = worst.get(result.id);
      const over = result.ratio / ADAPTER_GOAL_RATIO[entry.mode];
      if (previous === undefined || over > previous.ratio / ADAPTER_GOAL_RATIO[previous.mode]) {
        worst.set(result.id, { ratio: result.ratio, mode: entry.mode, where: `${entry.stream}/${entry.mode}` });
      }
    }
  }
  const lines = [...worst.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, { ratio, mode, where }]) => {
      const goal = id.startsWith('adapter:') ? `  ${verdict(ratio, mode)}` : '';
      return `  ${id.padEnd(24)} worst ${ratio.toFixed(2)}x (${where})${goal}`;
    });
  return lines.length === 0 ? '' : `Worst ratio to the goal (16k: 1.2x, event and paced: 1.1x):\n${lines.join('\n')}`;
}
