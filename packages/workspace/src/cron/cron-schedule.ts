import { Cron } from 'croner';
import { CronError } from './cron-error.js';

/** Longest cron expression accepted (characters). */
const MAX_EXPRESSION_LENGTH = 200;

/** A parsed cron expression in its time zone: computes occurrences, never fires anything itself. */
export interface CronSchedule {
  readonly expression: string;
  readonly timezone: string;
  /** The first occurrence strictly after `after` (epoch ms), or undefined when there is none. */
  next(after: number): number | undefined;
  /** Up to `count` occurrences strictly after `after`, in order. */
  nextRuns(count: number, after: number): number[];
  /** The last occurrence strictly before `before`, or undefined when there is none. */
  previous(before: number): number | undefined;
}

const zoneNames = new Map<string, string>();

/**
 * The canonical IANA name of a time zone (`europe/berlin` -> `Europe/Berlin`), or a `CronError`
 * `unknown-timezone` naming what to give instead.
 */
export function canonicalTimezone(timezone: string): string {
  const known = zoneNames.get(timezone);
  if (known !== undefined) return known;
  let name: string;
  try {
    if (timezone.trim() === '' || timezone.length > 100 || /^[+-]/.test(timezone))
      throw new RangeError('not a zone name');
    name = new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
  } catch {
    throw new CronError({
      reason: 'unknown-timezone',
      field: 'timezone',
      message: `Unknown time zone ${JSON.stringify(timezone)}: give an IANA zone name such as "Europe/Berlin", "America/New_York" or "UTC".`,
    });
  }
  if (zoneNames.size < 1000) zoneNames.set(timezone, name);
  return name;
}

function invalidExpression(expression: string, detail: string): CronError {
  return new CronError({
    reason: 'invalid-expression',
    field: 'cron',
    message: `The cron expression ${JSON.stringify(expression)} ${detail}`,
  });
}

/**
 * Parses a cron expression (croner): 5 fields (minute hour day-of-month month day-of-week), or 6
 * with seconds first, as BoxAgnts writes them; nicknames such as `@daily` too. Occurrences are
 * computed in `timezone`, with croner's DST rules: a fixed time that falls in a spring-forward gap
 * runs once, right after the gap; a fixed time that occurs twice (autumn) runs once, the first time.
 * A job with no future occurrence is refused (`never-fires`) unless `requireFuture` is false.
 *
 * Each parsed schedule holds croner's tables (about 80 KB, most of it a year table): cache a few,
 * never one per job of thousands.
 */
export function parseCronSchedule(
  expression: string,
  timezone: string,
  options: { requireFuture?: boolean } = {},
): CronSchedule {
  if (typeof expression !== 'string' || expression.trim() === '') {
    throw invalidExpression(String(expression), 'is empty: give 5 fields such as "0 9 * * *" (every day at 09:00).');
  }
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    throw invalidExpression(
      `${expression.slice(0, 40)}...`,
      `is longer than ${MAX_EXPRESSION_LENGTH} characters: shorten it.`,
    );
  }
  const zone = canonicalTimezone(timezone);
  const trimmed = expression.trim();
  const fields = trimmed.split(/\s+/).length;
  if (!trimmed.startsWith('@') && fields !== 5 && fields !== 6) {
    throw invalidExpression(
      expression,
      `has ${fields} field${fields === 1 ? '' : 's'}: give 5 (minute hour day-of-month month day-of-week, e.g. "0 9 * * 1-5") or 6 with seconds first (e.g. "0 0 9 * * *").`,
    );
  }
  let cron: Cron;
  try {
    // UTC has no DST: a fixed offset spares croner a time-zone conversion per step (several times faster).
    cron = new Cron(
      trimmed,
      zone === 'UTC' ? { utcOffset: 0, mode: '5-or-6-parts' } : { timezone: zone, mode: '5-or-6-parts' },
    );
  } catch (error) {
    const detail = (error instanceof Error ? error.message : String(error)).replace(/^CronPattern:\s*/, '');
    throw invalidExpression(expression, `is not valid (${detail}); fix that field.`);
  }
  const next = (after: number): number | undefined => {
    const date = cron.nextRun(new Date(after));
    return date === null ? undefined : date.getTime();
  };
  if (options.requireFuture !== false && next(Date.now()) === undefined) {
    throw new CronError({
      reason: 'never-fires',
      field: 'cron',
      message: `The cron expression ${JSON.stringify(expression)} has no future occurrence (a date that does not exist, such as 30 February?): change the day or month.`,
    });
  }
  return {
    expression: trimmed,
    timezone: zone,
    next,
    previous(before) {
      // croner drops the milliseconds of the reference: round up to a whole second, so an occurrence
      // at 12:01:00 counts as before 12:01:00.001.
      const [date] = cron.previousRuns(1, new Date(Math.ceil(before / 1000) * 1000));
      return date === undefined ? undefined : date.getTime();
    },
    nextRuns(count, after) {
      const runs: number[] = [];
      let cursor = after;
      while (runs.length < count) {
        const at = next(cursor);
        if (at === undefined) break;
        runs.push(at);
        cursor = at;
      }
      return runs;
    },
  };
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** `at` as an ISO 8601 local time with its UTC offset in `timezone`, e.g. `2026-03-29T03:00:00+02:00`. */
export function formatInTimezone(at: number, timezone: string): string {
  let format = offsetFormats.get(timezone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    if (offsetFormats.size < 1000) offsetFormats.set(timezone, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(new Date(at))) parts[part.type] = part.value;
  const offset = (parts.timeZoneName ?? 'GMT').replace('GMT', '') || '+00:00';
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}
