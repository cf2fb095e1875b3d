import { type CronSchedule, parseCronSchedule } from '@boxagnts/workspace';

/**
 * Parsed schedules by expression and zone, least recently used dropped first. A croner instance
 * holds about 80 KB of tables, so 10,000 jobs must not keep one each: the scheduler keeps only a
 * job's next instant and parses again (about 0.1 ms) when the cache no longer has it.
 */
export class ScheduleCache {
  readonly #entries = new Map<string, CronSchedule>();
  readonly #capacity: number;

  constructor(capacity = 256) {
    this.#capacity = capacity;
  }

  get(cron: string, timezone: string): CronSchedule {
    const key = `${timezone}\u0000${cron}`;
    const found = this.#entries.get(key);
    if (found !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, found);
      return found;
    }
    const schedule = parseCronSchedule(cron, timezone, { requireFuture: false });
    this.#entries.set(key, schedule);
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    return schedule;
  }
}
