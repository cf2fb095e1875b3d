/**
 * Events produced while the loop awaits work (tool calls, sub-agents), delivered in order as they
 * happen: producers `push`; the loop `watch`es the work, then yields what `take` gives and
 * `wait`s while the work is `busy` (or uses `drainWhile`, which does the same as a generator).
 */
export class EventBuffer<T> {
  private events: T[] | undefined;
  private wake: (() => void) | undefined;
  private watching = 0;
  private value: unknown;
  private failed = false;

  push(event: T): void {
    if (this.events === undefined) this.events = [event];
    else this.events.push(event);
    this.wakeUp();
  }

  /**
   * Counts `work` as busy until it settles; then {@link EventBuffer.result} gives what it resolved
   * to (no `await work` needed, which would cost the loop another turn of the microtask queue).
   */
  watch(work: Promise<unknown>): void {
    this.watching++;
    work.then(this.onValue, this.onError);
  }

  // Made once per buffer: `watch` runs every turn and would otherwise make two closures each time.
  private readonly onValue = (value: unknown): void => {
    this.settled(value, false);
  };

  private readonly onError = (error: unknown): void => {
    this.settled(error, true);
  };

  /**
   * Counts work that reports by callback, not by a promise, as busy until {@link EventBuffer.settle}
   * (a single tool call: no promise to watch, and no microtask hop to see it settle).
   */
  hold(): void {
    this.watching++;
  }

  /** Ends work counted by {@link EventBuffer.hold}: what it gave, or (`failed`) what it failed with. */
  settle(value: unknown, failed: boolean): void {
    this.settled(value, failed);
  }

  /** What the last settled watched work resolved to; throws what it rejected with. Read once. */
  result(): unknown {
    const { value, failed } = this;
    this.value = undefined;
    this.failed = false;
    if (failed) throw value;
    return value;
  }

  /** Whether watched work has not settled yet. */
  get busy(): boolean {
    return this.watching > 0;
  }

  /** The buffered events in order (emptying the buffer), or `undefined` when there are none. */
  take(): T[] | undefined {
    const events = this.events;
    this.events = undefined;
    return events;
  }

  /** The first buffered event (removed from the buffer), or `undefined` when there is none. */
  shift(): T | undefined {
    const events = this.events;
    if (events === undefined) return undefined;
    const event = events.shift();
    if (events.length === 0) this.events = undefined;
    return event;
  }

  /** Resolves at the next `push` or when watched work settles. */
  wait(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
    });
  }

  /** Yields buffered events until `work` settles, then the rest; returns what `work` resolved to. */
  async *drainWhile<R>(work: Promise<R>): AsyncGenerator<T, R> {
    this.watch(work);
    for (;;) {
      const events = this.take();
      if (events !== undefined) {
        for (const event of events) yield event;
        continue;
      }
      if (!this.busy) break;
      await this.wait();
    }
    return this.result() as R;
  }

  private settled(value: unknown, failed: boolean): void {
    this.value = value;
    this.failed = failed;
    this.watching--;
    this.wakeUp();
  }

  private wakeUp(): void {
    const wake = this.wake;
    if (wake !== undefined) {
      this.wake = undefined;
      wake();
    }
  }
}
