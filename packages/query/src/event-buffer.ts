/**
 * Events produced while the loop awaits work (tool calls, sub-agents), delivered in order as they
 * happen: producers `push`, the loop `drainWhile`s a promise and yields each event.
 */
export class EventBuffer<T> {
  private events: T[] = [];
  private wake: (() => void) | undefined;

  push(event: T): void {
    this.events.push(event);
    const wake = this.wake;
    if (wake !== undefined) {
      this.wake = undefined;
      wake();
    }
  }

  /** Yields buffered events until `work` settles, then the rest; returns what `work` resolved to. */
  async *drainWhile<R>(work: Promise<R>): AsyncGenerator<T, R> {
    let settled = false;
    const watched = work.finally(() => {
      settled = true;
      const wake = this.wake;
      this.wake = undefined;
      wake?.();
    });
    for (;;) {
      if (this.events.length > 0) {
        const batch = this.events;
        this.events = [];
        for (const event of batch) yield event;
        continue;
      }
      if (settled) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    return await watched;
  }
}
