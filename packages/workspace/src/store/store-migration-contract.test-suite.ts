import { describe, expect, it } from 'vitest';
import { currentSchemaVersion, LATEST_SCHEMA_VERSION, migrateStore } from './migrate.js';
import { prepareEntry } from './session-rows.js';
import {
  CONVERSATION,
  rejection,
  type StoreContractTarget,
  texts,
  usage,
} from './store-contract-fixtures.test-suite.js';

/**
 * Schema upgrade tests, run against every backend: a filled version 1 database, a filled version 2
 * one, a filled version 3 one, a newer one.
 */
export function defineMigrationContract(name: string, target: StoreContractTarget): void {
  describe(`store migrations: ${name}`, () => {
    it('upgrades a filled version 1 database, keeping and indexing its data', async () => {
      const backend = await target.openEmptyBackend();
      expect(await migrateStore(backend, 1)).toBe(1);
      await backend.write(async (transaction) => {
        await transaction
          .insertInto('sessions')
          .values({ id: 'v1', title: 'From v1', created_at: 1, updated_at: 2 })
          .execute();
        await transaction
          .insertInto('messages')
          .values(
            CONVERSATION.map((entry, index) => ({
              session_id: 'v1',
              seq: index + 1,
              role: entry.message.role,
              content: JSON.stringify(entry.message.content),
              provider_metadata: null,
              model: entry.model ?? null,
              usage: entry.usage === undefined ? null : JSON.stringify(entry.usage),
              compaction: null,
              created_at: 10 + index,
            })),
          )
          .execute();
      });
      await backend.close();
      const upgraded = await target.reopen();
      try {
        expect(await upgraded.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
        expect(await upgraded.sessions.get('v1')).toMatchObject({
          title: 'From v1',
          messageCount: 4,
          createdAt: 1,
          updatedAt: 2,
        });
        expect(texts(await upgraded.sessions.load('v1'))).toEqual(texts(CONVERSATION));
        expect((await upgraded.sessions.search('okapi')).map((hit) => hit.seq).sort()).toEqual([3, 4]);
        await upgraded.sessions.append('v1', [{ message: { role: 'user', content: 'after the upgrade' } }]);
        expect((await upgraded.sessions.load('v1')).map((entry) => (entry as { seq?: number }).seq)).toEqual([
          1, 2, 3, 4, 5,
        ]);
      } finally {
        await upgraded.close();
      }
    });

    it('upgrades a filled version 2 database to version 3, and search still finds its messages', async () => {
      const backend = await target.openEmptyBackend();
      expect(await migrateStore(backend, 2)).toBe(2);
      // The rows a version 2 store wrote: message count, search text and all.
      await backend.write(async (transaction) => {
        await transaction
          .insertInto('sessions')
          .values({ id: 'v2', title: 'From v2', created_at: 1, updated_at: 2, message_count: CONVERSATION.length })
          .execute();
        await transaction
          .insertInto('messages')
          .values(
            CONVERSATION.map((entry, index) => ({
              ...prepareEntry(entry),
              session_id: 'v2',
              seq: index + 1,
              created_at: 10 + index,
            })),
          )
          .execute();
      });
      expect(await currentSchemaVersion(backend)).toBe(2);
      expect(await migrateStore(backend, 3)).toBe(3);
      await backend.close();
      const upgraded = await target.reopen();
      try {
        expect(await upgraded.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
        expect(await upgraded.sessions.get('v2')).toMatchObject({ title: 'From v2', messageCount: 4 });
        expect(texts(await upgraded.sessions.load('v2'))).toEqual(texts(CONVERSATION));
        const okapi = await upgraded.sessions.search('okapi');
        expect(okapi.map((hit) => hit.seq).sort()).toEqual([3, 4]);
        for (const hit of okapi) expect(hit.snippet.toLowerCase()).toContain('[okapi]');
        expect((await upgraded.sessions.search('zebra')).map((hit) => hit.seq).sort()).toEqual([1, 3]);
        expect((await upgraded.sessions.search('OKAPI renamed')).map((hit) => hit.seq)).toEqual([3]);
        expect((await upgraded.sessions.search('okapi', { sessionId: 'v2', limit: 1 })).length).toBe(1);
        // Tool inputs stay out of the index across the upgrade.
        expect(await upgraded.sessions.search('alpha')).toEqual([]);
        // Old and new messages are found together.
        await upgraded.sessions.append('v2', [{ message: { role: 'user', content: 'the okapi, once more' } }]);
        expect((await upgraded.sessions.search('okapi')).map((hit) => hit.seq).sort()).toEqual([3, 4, 5]);
      } finally {
        await upgraded.close();
      }
    });

    it('upgrades a filled version 3 database to version 4: usage purposes and session kinds', async () => {
      const backend = await target.openEmptyBackend();
      expect(await migrateStore(backend, 3)).toBe(3);
      await backend.write(async (transaction) => {
        for (const [id, parent, forkedAt] of [
          ['root', null, null],
          ['forked', 'root', 1],
        ] as const) {
          await transaction
            .insertInto('sessions')
            .values({ id, title: id, created_at: 1, updated_at: 1, parent_session_id: parent, forked_at_seq: forkedAt })
            .execute();
        }
        await transaction
          .insertInto('usage_records')
          .values({
            session_id: 'root',
            provider: 'anthropic',
            model: 'claude-test',
            agent: null,
            sub_agent: null,
            input_tokens: 10,
            input_no_cache_tokens: 10,
            cache_read_tokens: 0,
            cache_write_tokens: 0,
            output_tokens: 2,
            output_text_tokens: 2,
            reasoning_tokens: 0,
            cost_usd: 0.5,
            created_at: 5,
            day: '1970-01-01',
          })
          .execute();
      });
      expect(await migrateStore(backend, 4)).toBe(4);
      await backend.close();
      const upgraded = await target.reopen();
      try {
        expect(await upgraded.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
        expect((await upgraded.sessions.get('root'))?.kind).toBe('session');
        expect(await upgraded.sessions.get('forked')).toMatchObject({ kind: 'fork', parentSessionId: 'root' });
        // A record from before version 4 has no purpose: it groups under ''.
        await upgraded.sessions.recordUsage({
          sessionId: 'root',
          provider: 'anthropic',
          model: 'claude-test',
          purpose: 'compaction',
          usage: usage(3, 1),
        });
        expect((await upgraded.usage.report('purpose')).map((row) => [row.key, row.calls, row.costUsd])).toEqual([
          ['', 1, 0.5],
          ['compaction', 1, 0],
        ]);
        await upgraded.sessions.createChildSession({ sessionId: 'kid', parentSessionId: 'root' });
        expect((await upgraded.sessions.children('root')).map((child) => child.id).sort()).toEqual(['forked', 'kid']);
      } finally {
        await upgraded.close();
      }
    });

    it('refuses a database written by a newer version, and does not touch it', async () => {
      const backend = await target.openEmptyBackend();
      await migrateStore(backend);
      await backend.write((transaction) =>
        transaction.insertInto('schema_version').values({ version: 99, applied_at: 0 }).execute(),
      );
      await backend.close();
      const error = await rejection(target.reopen());
      expect(error.reason).toBe('schema-too-new');
      expect(error.message).toContain('upgrade @boxagnts/workspace');
    });
  });
}
