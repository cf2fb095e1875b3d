/** The time source of the scheduler: tests pass a clock they move by hand. */
export interface CronClock {
  /** Epoch milliseconds. */
  now(): number;
  /** Calls `callback` after `delayMs`; returns a handle for `clearTimer`. */
  setTimer(callback: () => void, delayMs: number): unknown;
  clearTimer(handle: unknown): void;
}

/** The real clock: `Date.now()` and unref'd `setTimeout`s (a pending occurrence never keeps a process alive). */
export const systemClock: CronClock = {
  now: () => Date.now(),
  setTimer(callback, delayMs) {
    const handle = setTimeout(callback, delayMs);
    handle.unref();
    return handle;
  },
  clearTimer(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};
