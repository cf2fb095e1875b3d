import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';

/**
 * Serialises work per root folder: calls that may change a root run one after another, so a
 * guest never sees another call's half-done changes and no two calls race on the same paths (the
 * shim resolves a path and then opens it; a concurrent swap in between could escape the root).
 */
export class RootLock {
  private readonly tails = new Map<string, Promise<void>>();
  /** Callers register in call order: resolving one root's real path never lets a later call overtake. */
  private registration: Promise<unknown> = Promise.resolve();

  /** Runs `work` once every earlier holder of `root` (earlier by call order) has finished. */
  async withLock<T>(root: string, work: () => Promise<T>): Promise<T> {
    let release: () => void = () => {};
    const current = new Promise<void>((done) => {
      release = done;
    });
    const registered = this.registration
      .then(() => canonicalRoot(root))
      .then((key) => {
        const previous = this.tails.get(key) ?? Promise.resolve();
        const tail = previous.then(() => current);
        this.tails.set(key, tail);
        return { key, previous, tail };
      });
    this.registration = registered.catch(() => undefined);
    const { key, previous, tail } = await registered;
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

/** The root's real path (so two spellings of one folder share a lock), or its resolved path. */
export async function canonicalRoot(root: string): Promise<string> {
  try {
    return await realpath(root);
  } catch {
    return resolve(root);
  }
}
