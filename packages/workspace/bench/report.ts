import type { Measurement } from './measurement.js';

function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (unit === 'ms') return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
  return `${Math.round(value).toLocaleString('en-US')} ${unit}`;
}

function cell(side: Measurement['store']): string {
  const value = formatValue(side.value, side.unit);
  return side.note === undefined || side.note === '' ? value : `${value} (${side.note})`;
}

/** A Markdown table of one backend's measurements: medians, and the store's time over the baseline's. */
export function formatTable(backend: string, baseline: string, rows: readonly Measurement[]): string {
  const lines = [
    `| ${backend} | store | ${baseline} | store ÷ baseline (time) |`,
    '| --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row.measure} | ${cell(row.store)} | ${cell(row.baseline)} | ${row.ratio.toFixed(2)}× |`),
  ];
  return lines.join('\n');
}
