import { benchEntries } from './bench-data.js';
import type { BenchTarget } from './bench-target.js';
import { now } from './stats.js';

/** Entries per append when filling a data set. */
export const BULK_BATCH = 1000;

/** Fills sessions in batches; resolves with the bulk rate in messages per second. */
export async function bulkFill(target: BenchTarget, prefix: string, sessions: number, total: number): Promise<number> {
  const perSession = Math.ceil(total / sessions);
  const start = now();
  for (let session = 0; session < sessions; session++) {
    for (let done = 0; done < perSession; done += BULK_BATCH) {
      const count = Math.min(BULK_BATCH, perSession - done);
      await target.append(
        `${prefix}-${session}`,
        benchEntries(count, 7 + session * 1000 + done, session * perSession + done),
      );
    }
  }
  return (sessions * perSession) / ((now() - start) / 1000);
}
