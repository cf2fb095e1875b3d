import type { StreamStallKind } from '../spec/llm-error-classes.js';

/** The three limits of a {@link StallWatch} in ms; `Infinity` switches one off. */
export interface StallLimits {
  firstByteMs: number;
  idleMs: number;
  keepAliveMs: number;
}

/**
 * The stall timers of one stream attempt, driven by two calls: `wait()` when the consumer starts
 * waiting for the next item, `item()` when one arrives. Only waiting time counts: the time the
 * consumer spends on an item is never a stall. One watchdog timer serves the whole stream: an item
 * only stamps the time (no timer is set or cleared per item), and the watchdog re-arms itself for
 * what is left when it fires early. A keep-alive item restarts the first-item or idle wait, and a
 * stretch of nothing but keep-alives longer than `keepAliveMs` is a stall of its own.
 */
export class StallWatch {
  private received = false;
  private stopped = false;
  /** When the current wait began; undefined while nobody waits. */
  private waitingSince: number | undefined;
  /** Waiting time since the last content item (or the start) up to the last keep-alive. */
  private quietMs = 0;
  /** Whether a keep-alive arrived since the last content item. */
  private keepAlives = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerDue = 0;

  constructor(
    private readonly limits: StallLimits,
    private readonly onStall: (kind: StreamStallKind, timeoutMs: number) => void,
  ) {}

  /** The consumer waits for an item from now on (a no-op while a wait is already running). */
  wait(): void {
    if (this.stopped || this.waitingSince !== undefined) return;
    const now = performance.now();
    this.waitingSince = now;
    // Never armed later than the idle limit: the first-byte wait (usually the longer one) is then
    // re-armed once when the watchdog fires early, instead of the timer being cleared and set again
    // when the first item turns the first-byte limit into the idle one, on every stream.
    this.arm(now, Math.min(this.left(0), this.limits.idleMs));
  }

  /** An item arrived: content, or a keep-alive that proves the server alive but carries nothing. */
  item(keepAlive: boolean): void {
    const since = this.waitingSince;
    this.waitingSince = undefined;
    if (keepAlive) {
      if (since !== undefined) this.quietMs += performance.now() - since;
      this.keepAlives = true;
    } else {
      this.received = true;
      this.quietMs = 0;
      this.keepAlives = false;
    }
  }

  /** No more timing: the attempt is over. */
  stop(): void {
    this.stopped = true;
    this.waitingSince = undefined;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Time left, after `waited` ms of the current wait, until the nearest limit runs out. */
  private left(waited: number): number {
    const wait = (this.received ? this.limits.idleMs : this.limits.firstByteMs) - waited;
    return this.keepAlives ? Math.min(wait, this.limits.keepAliveMs - this.quietMs - waited) : wait;
  }

  private readonly watch = (): void => {
    this.timer = undefined;
    // While the consumer holds an item nothing is timed; its next wait arms the timer again.
    if (this.stopped || this.waitingSince === undefined) return;
    const now = performance.now();
    const waited = now - this.waitingSince;
    const wait = this.received ? this.limits.idleMs : this.limits.firstByteMs;
    if (waited >= wait) this.fire(this.received ? 'idle' : 'first-byte', wait);
    else if (this.keepAlives && this.quietMs + waited >= this.limits.keepAliveMs) {
      this.fire('keep-alive-only', this.limits.keepAliveMs);
    } else this.arm(now, this.left(waited));
  };

  private fire(kind: StreamStallKind, timeoutMs: number): void {
    this.stop();
    this.onStall(kind, timeoutMs);
  }

  /** Arms the watchdog for `delay` ms, unless it is already due no later (or no limit is on). */
  private arm(now: number, delay: number): void {
    if (delay === Number.POSITIVE_INFINITY) return;
    const due = now + Math.max(1, delay);
    if (this.timer !== undefined) {
      if (this.timerDue <= due) return;
      clearTimeout(this.timer);
    }
    this.timerDue = due;
    this.timer = setTimeout(this.watch, due - now);
  }
}

/** A timer's limit in ms; `0`, a negative or a non-finite value disables it (`Infinity`). */
export function stallLimit(ms: number): number {
  return ms > 0 && Number.isFinite(ms) ? ms : Number.POSITIVE_INFINITY;
}
