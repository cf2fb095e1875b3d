import type { ChildSessionInfo } from '@boxagnts/query';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { describeIssue, sessionIdSchema } from './entry-schema.js';
import type { StoreBackend } from './store-backend.js';
import type { StoreDatabase } from './store-database.js';
import { StoreError, toStoreError } from './store-error.js';

/** How far up a chain of parents the cycle check looks (sub-agents of sub-agents, ...). */
const MAX_ANCESTRY = 1000;

const childSchema = z.object({
  sessionId: sessionIdSchema,
  parentSessionId: sessionIdSchema,
  agent: z.string().max(200).optional(),
  title: z.string().max(1000).optional(),
});

function invalid(message: string, sessionId?: string): StoreError {
  return new StoreError({ reason: 'invalid-input', message, ...(sessionId === undefined ? {} : { sessionId }) });
}

async function row(database: Kysely<StoreDatabase>, id: string) {
  return database
    .selectFrom('sessions')
    .select(['id', 'parent_session_id', 'kind', 'title', 'agent'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** True when `ancestor` is `start` or one of its parents, grandparents, ... */
async function isAncestor(database: Kysely<StoreDatabase>, start: string, ancestor: string): Promise<boolean> {
  let current: string | null = start;
  for (let depth = 0; current !== null && depth < MAX_ANCESTRY; depth++) {
    if (current === ancestor) return true;
    current = (await row(database, current))?.parent_session_id ?? null;
  }
  return current !== null;
}

/**
 * Creates (or finds again) the session of a sub-agent's transcript, linked to the parent session,
 * in one write transaction: the parent row is created when missing, a child created before (a
 * resumed run asks again) is left as it is, and a plain session of that id without a parent (its
 * messages were appended before it was announced) is linked, keeping its messages. A session
 * linked elsewhere, a fork, or a link that would make a cycle is a `conflict`.
 */
export async function createChildSession(backend: StoreBackend, child: ChildSessionInfo): Promise<void> {
  const parsed = childSchema.safeParse(child);
  if (!parsed.success) {
    throw invalid(`Cannot create the sub-agent session (${describeIssue(parsed.error)}); fix that field.`);
  }
  const { sessionId, parentSessionId, agent, title } = parsed.data;
  if (sessionId === parentSessionId) {
    throw invalid(`A sub-agent session cannot be its own parent (${JSON.stringify(sessionId)}).`, sessionId);
  }
  const doing = `Creating sub-agent session ${sessionId} of ${parentSessionId}`;
  try {
    await backend.write(async (transaction) => {
      const now = Date.now();
      // Concurrent announcements of one new parent's children each insert it; one wins, the rest skip.
      await transaction
        .insertInto('sessions')
        .values({ id: parentSessionId, title: '', created_at: now, updated_at: now, kind: 'session' })
        .onConflict((conflict) => conflict.column('id').doNothing())
        .execute();
      const existing = await row(transaction, sessionId);
      if (existing === undefined) {
        await transaction
          .insertInto('sessions')
          .values({
            id: sessionId,
            title: title ?? '',
            agent: agent ?? null,
            parent_session_id: parentSessionId,
            created_at: now,
            updated_at: now,
            kind: 'sub-agent',
          })
          .execute();
        return;
      }
      if (existing.kind === 'sub-agent' && existing.parent_session_id === parentSessionId) return;
      if (existing.parent_session_id !== null || existing.kind !== 'session') {
        throw new StoreError({
          reason: 'conflict',
          sessionId,
          message: `${doing}: session ${JSON.stringify(sessionId)} exists already as a ${existing.kind}${existing.parent_session_id === null ? '' : ` of ${JSON.stringify(existing.parent_session_id)}`}; give the sub-agent another session id.`,
        });
      }
      if (await isAncestor(transaction, parentSessionId, sessionId)) {
        throw new StoreError({
          reason: 'conflict',
          sessionId,
          message: `${doing}: ${JSON.stringify(sessionId)} is an ancestor of ${JSON.stringify(parentSessionId)}, so the link would make a cycle; give the sub-agent another session id.`,
        });
      }
      // Messages were appended before the session was announced: link it, keep what it holds.
      await transaction
        .updateTable('sessions')
        .set({
          parent_session_id: parentSessionId,
          kind: 'sub-agent',
          updated_at: now,
          ...(existing.title === '' && title !== undefined ? { title } : {}),
          ...(existing.agent === null && agent !== undefined ? { agent } : {}),
        })
        .where('id', '=', sessionId)
        .execute();
    });
  } catch (error) {
    throw toStoreError(error, doing);
  }
}
