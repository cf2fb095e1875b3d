import type { SessionEntry } from '@boxagnts/query';
import { type Kysely, sql } from 'kysely';
import { describeIssue, sessionEntrySchema, sessionIdSchema } from './entry-schema.js';
import { type PreparedEntry, prepareEntry, titleFromEntries } from './session-rows.js';
import type { StoreDatabase } from './store-database.js';
import { StoreError } from './store-error.js';

/** Default cap of one stored message: 16 MiB of JSON (its content and provider metadata). */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

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
export function prepareEntries(
  sessionId: string,
  entries: readonly SessionEntry[],
  maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES,
): PreparedEntry[] {
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
    let row: PreparedEntry;
    try {
      row = prepareEntry(entry);
    } catch (error) {
      throw new StoreError({
        reason: 'invalid-input',
        sessionId,
        message: `Entry ${index} of the batch for session ${sessionId} cannot be stored as JSON (${error instanceof Error ? error.message : String(error)}); remove cycles and bound its nesting. Nothing of the batch was stored.`,
        cause: error,
      });
    }
    const bytes = Buffer.byteLength(row.content, 'utf8') + Buffer.byteLength(row.provider_metadata ?? '', 'utf8');
    if (bytes > maxMessageBytes) {
      throw new StoreError({
        reason: 'too-large',
        sessionId,
        message: `Entry ${index} of the batch for session ${sessionId} is ${bytes} bytes of JSON, more than the ${maxMessageBytes} bytes one stored message may hold; nothing of the batch was stored. Shorten it (cut a long tool result or answer, or keep large data in a file and store its path), or open the store with a larger maxMessageBytes.`,
      });
    }
    return row;
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
