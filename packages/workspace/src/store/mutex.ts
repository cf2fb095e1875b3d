/**
 * A first-in first-out async lock: callers of {@link Mutex.run} run one at a time, so two async
 * writers in one process can never interleave inside one SQLite transaction.
 */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  /** Runs `work` once every earlier caller has finished, and resolves with its result. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(work);
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
