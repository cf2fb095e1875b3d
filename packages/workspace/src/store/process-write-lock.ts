import { realpathSync } from 'node:fs';
import { Mutex } from './mutex.js';

interface LockEntry {
  mutex: Mutex;
  users: number;
}

// Shared through globalThis so two copies of this package in one process share it too.
const REGISTRY_KEY = Symbol.for('boxagnts.workspace.sqlite-write-locks');

function registry(): Map<string, LockEntry> {
  const holder = globalThis as unknown as Record<symbol, Map<string, LockEntry> | undefined>;
  let locks = holder[REGISTRY_KEY];
  if (locks === undefined) {
    locks = new Map();
    holder[REGISTRY_KEY] = locks;
  }
  return locks;
}

/** A lock on one SQLite file for this process; `release` once the connection is closed. */
export interface ProcessWriteLock {
  mutex: Mutex;
  release(): void;
}

/**
 * The write lock every connection of this process to one SQLite file shares. better-sqlite3 waits
 * for a busy lock synchronously, so a second connection in the same process that started
 * `BEGIN IMMEDIATE` while the first one's transaction awaits would block the very thread that has
 * to finish it, until the busy timeout fails it. Taking turns in JavaScript first avoids that.
 */
export function acquireProcessWriteLock(path: string): ProcessWriteLock {
  let key = path;
  try {
    key = realpathSync(path);
  } catch {
    // An in-memory or not yet created database: its path names it well enough.
  }
  const locks = registry();
  let entry = locks.get(key);
  if (entry === undefined) {
    entry = { mutex: new Mutex(), users: 0 };
    locks.set(key, entry);
  }
  entry.users++;
  const held = entry;
  let released = false;
  return {
    mutex: held.mutex,
    release() {
      if (released) return;
      released = true;
      held.users--;
      if (held.users === 0 && locks.get(key) === held) locks.delete(key);
    },
  };
}
