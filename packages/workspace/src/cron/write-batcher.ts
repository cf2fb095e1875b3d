import type { Kysely } from 'kysely';
import type { StoreBackend } from '../store/store-backend.js';
import type { StoreDatabase } from '../store/store-database.js';
import { isCronError } from './cron-error.js';

interface Pending {
  work: (transaction: Kysely<StoreDatabase>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the scheduler's small writes (claims, log updates): writes asked for while
 * another commits are made together in the next transaction, so a burst of occurrences costs a
 * few commits (each one an fsync on SQLite) instead of one per write. A `CronError` of one write
 * (an unknown job) fails that write only; a database error fails the whole batch, which is rolled back.
 */
export function createWriteBatcher(backend: StoreBackend) {
  let queue: Pending[] = [];
  let scheduled = false;
  const flush = async () => {
    scheduled = false;
    const items = queue;
    queue = [];
    if (items.length === 0) return;
    try {
      const results = await backend.write(async (transaction) => {
        const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
        for (const item of items) {
          try {
            outcomes.push({ ok: true, value: await item.work(transaction) });
          } catch (error) {
            if (!isCronError(error)) throw error;
            outcomes.push({ ok: false, error });
          }
        }
        return outcomes;
      });
      results.forEach((result, index) => {
        const item = items[index] as Pending;
        if (result.ok) item.resolve(result.value);
        else item.reject(result.error);
      });
    } catch (error) {
      for (const item of items) item.reject(error);
    }
  };
  return function batched<T>(work: (transaction: Kysely<StoreDatabase>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => void flush());
      }
    });
  };
}
