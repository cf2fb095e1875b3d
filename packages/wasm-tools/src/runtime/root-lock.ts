import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';

/**
 * Serialises work per root folder: calls that may change a root run one after another, so a
 * guest never sees another call's half-done changes and no two calls race on the same paths (the
 * shim resolves a path and then opens it; a concurrent swap in between could escape the root).
 */
export class RootLock {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `work` once every earlier holder of `root` has finished. */
  async withLock<T>(root: string, work: () => Promise<T>): Promise<T> {
    const key = await canonicalRoot(root);
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release: () => void = () => {};
    const current = new Promise<void>((done) => {
      release = done;
    });
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
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
