import type { SessionEntry } from '@boxagnts/query';
import { type Kysely, sql } from 'kysely';
import { describeIssue, sessionEntrySchema, sessionIdSchema } from './entry-schema.js';
import { type PreparedEntry, prepareEntry, titleFromEntries } from './session-rows.js';
import type { StoreDatabase } from './store-database.js';
import { StoreError } from './store-error.js';

// Rows per INSERT: well under SQLite's bound-parameter limit (32766) at 11 columns per row.
const INSERT_CHUNK = 500;

/** Throws an `invalid-input` {@link StoreError} unless `sessionId` is a usable id. */
export function assertSessionId(sessionId: unknown): asserts sessionId is string {
  const parsed = sessionIdSchema.safeParse(sessionId);
  if (!parsed.success) {
    throw new StoreError({
      reason: 'invalid-input',
      message: `The session id ${JSON.stringify(String(sessionId)).slice(0, 60)} is not usable (${describeIssue(parsed.error)}); use 1 to 200 characters without control characters.`,
    });
  }
}

/**
 * Checks and serialises a batch before any transaction starts, so a bad entry writes nothing and
 * the error names it.
 */
export function prepareEntries(sessionId: string, entries: readonly SessionEntry[]): PreparedEntry[] {
  if (!Array.isArray(entries)) {
    throw new StoreError({
      reason: 'invalid-input',
      sessionId,
      message: 'append() takes an array of entries; wrap a single entry in [ ].',
    });
  }
  return entries.map((entry, index) => {
    const parsed = sessionEntrySchema.safeParse(entry);
    if (!parsed.success) {
      throw new StoreError({
        reason: 'invalid-input',
        sessionId,
        message: `Entry ${index} of the batch for session ${sessionId} is not a valid session entry (${describeIssue(parsed.error)}); nothing of the batch was stored. Fix that entry and append again.`,
      });
    }
    try {
      return prepareEntry(entry);
    } catch (error) {
      throw new StoreError({
        reason: 'invalid-input',
        sessionId,
        message: `Entry ${index} of the batch for session ${sessionId} cannot be stored as JSON (${error instanceof Error ? error.message : String(error)}); remove cycles and bound its nesting. Nothing of the batch was stored.`,
        cause: error,
      });
    }
  });
}

/** Inserts prepared rows as `seq` = `firstSeq`, `firstSeq + 1`, ... inside the caller's transaction. */
export async function insertMessages(
  transaction: Kysely<StoreDatabase>,
  sessionId: string,
  firstSeq: number,
  rows: readonly PreparedEntry[],
  now: number,
): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const values = rows.slice(start, start + INSERT_CHUNK).map((row, offset) => ({
      ...row,
      session_id: sessionId,
      seq: firstSeq + start + offset,
      created_at: row.created_at ?? now,
    }));
    await transaction.insertInto('messages').values(values).execute();
  }
}

/**
 * Appends a prepared batch in the caller's write transaction: creates the session row when
 * missing, bumps `message_count` and `updated_at`, and assigns the next `seq` values. The upsert
 * takes the session row's lock first, so concurrent appends to one session cannot pick the same seq.
 */
export async function appendPrepared(
  transaction: Kysely<StoreDatabase>,
  sessionId: string,
  entries: readonly SessionEntry[],
  rows: readonly PreparedEntry[],
): Promise<void> {
  const now = Date.now();
  const added = rows.length;
  const session = await transaction
    .insertInto('sessions')
    .values({ id: sessionId, title: titleFromEntries(entries), created_at: now, updated_at: now, message_count: added })
    .onConflict((conflict) =>
      conflict
        .column('id')
        .doUpdateSet({ updated_at: now, message_count: sql<number>`sessions.message_count + ${added}` }),
    )
    .returning('message_count')
    .executeTakeFirstOrThrow();
  await insertMessages(transaction, sessionId, Number(session.message_count) - added + 1, rows, now);
}
