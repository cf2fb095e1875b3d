import type { UsageRowJson } from '../../../../src/http/api-types/index.js';

/** Whole numbers with the locale's grouping (12,345). */
export function formatCount(value: number): string {
  return value.toLocaleString(undefined, { maximumFractionDigits: 0 });
}

/** Dollars: cents for amounts from one cent, four decimals below (cheap calls cost fractions of a cent). */
export function formatUsd(value: number): string {
  return `$${value !== 0 && Math.abs(value) < 0.01 ? value.toFixed(4) : value.toFixed(2)}`;
}

/** Tokens of a row that the model read or wrote (cache reads and writes included). */
export function totalTokens(row: UsageRowJson): number {
  return row.inputTokens + row.outputTokens + row.cacheReadTokens + row.cacheWriteTokens;
}

/** `YYYY-MM-DD` of an instant, in the browser's own zone (the value of a date input). */
export function dateInputValue(epochMs: number): string {
  const date = new Date(epochMs);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The range `[since, until)` of two date inputs, local midnight to the midnight after the last day. */
export function rangeOf(from: string, to: string): { since?: number; until?: number } {
  const start = from === '' ? undefined : new Date(`${from}T00:00:00`).getTime();
  const end = to === '' ? undefined : new Date(`${to}T00:00:00`).getTime() + 24 * 60 * 60 * 1000;
  return {
    ...(start === undefined || Number.isNaN(start) ? {} : { since: start }),
    ...(end === undefined || Number.isNaN(end) ? {} : { until: end }),
  };
}
