import type { CronClock } from '../cron/cron-clock.js';

interface Timer {
  at: number;
  order: number;
  callback: () => void;
}

/**
 * A clock the test moves by hand: `advanceTo` fires the timers that fall due in time order, with
 * `now()` at each timer's instant, and lets the work they start settle before the next one fires.
 * Hours of schedule run in milliseconds, and every fire happens exactly when it was due.
 */
export class ManualClock implements CronClock {
  #now: number;
  #order = 0;
  readonly #timers = new Map<number, Timer>();

  constructor(start: number | string) {
    this.#now = typeof start === 'string' ? Date.parse(start) : start;
  }

  now(): number {
    return this.#now;
  }

  setTimer(callback: () => void, delayMs: number): unknown {
    const id = ++this.#order;
    this.#timers.set(id, { at: this.#now + Math.max(0, delayMs), order: id, callback });
    return id;
  }

  clearTimer(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** Timers set and not yet fired or cleared. */
  get pendingTimers(): number {
    return this.#timers.size;
  }

  /** Moves to `target` (epoch ms or ISO), firing due timers in order and awaiting `settle` after each. */
  async advanceTo(target: number | string, settle: () => Promise<void> = async () => {}): Promise<void> {
    const until = typeof target === 'string' ? Date.parse(target) : target;
    await settle();
    for (;;) {
      let next: [number, Timer] | undefined;
      for (const entry of this.#timers) {
        if (entry[1].at > until) continue;
        if (
          next === undefined ||
          entry[1].at < next[1].at ||
          (entry[1].at === next[1].at && entry[1].order < next[1].order)
        )
          next = entry;
      }
      if (next === undefined) break;
      this.#timers.delete(next[0]);
      this.#now = Math.max(this.#now, next[1].at);
      next[1].callback();
      await settle();
    }
    this.#now = Math.max(this.#now, until);
    await settle();
  }

  /** Moves by `ms`. */
  advanceBy(ms: number, settle?: () => Promise<void>): Promise<void> {
    return this.advanceTo(this.#now + ms, settle);
  }

  /** Jumps to `target` without firing anything (the process was down). */
  jumpTo(target: number | string): void {
    this.#now = typeof target === 'string' ? Date.parse(target) : target;
  }
}
