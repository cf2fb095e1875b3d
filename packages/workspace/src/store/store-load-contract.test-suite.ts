import type { SessionEntry } from '@boxagnts/query';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateStore } from './migrate.js';
import { createWorkspaceSessionStore } from './session-store.js';
import { CONVERSATION, rejection, type StoreContractTarget, usage } from './store-contract-fixtures.test-suite.js';
import type { WorkspaceStore } from './store-types.js';

/** The object `load` gives back for an entry, with its keys in the order the store sets them. */
function expectedStored(sessionId: string, seq: number, entry: SessionEntry, createdAt: number) {
  const stored: Record<string, unknown> = { sessionId, seq, message: entry.message };
  if (entry.model !== undefined) stored.model = entry.model;
  if (entry.usage !== undefined) stored.usage = entry.usage;
  if (entry.compaction !== undefined) stored.compaction = entry.compaction;
  stored.createdAt = createdAt;
  return stored;
}

/** Every entry field the store keeps: provider metadata, model, usage, a compaction marker. */
const FULL_ENTRIES: SessionEntry[] = [
  ...CONVERSATION.slice(0, 3),
  {
    message: { role: 'user', content: 'Summary of the earlier turns.', providerMetadata: { boxagnts: { summary: 1 } } },
    compaction: { keptMessages: 2 },
    model: 'claude-test',
    usage: usage(9, 3),
    createdAt: 1_700_000_003_000,
  },
  { message: { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] }, createdAt: 1_700_000_004_000 },
];

/**
 * What `load` (and the export built on it) gives back, on every backend: the entries as plain
 * objects key for key, a load during a write sees the batch whole or not at all, and a row that
 * is not JSON is a `database` StoreError naming the session.
 */
export function defineLoadContract(name: string, target: StoreContractTarget): void {
  describe(`store load: ${name}`, () => {
    const opened: WorkspaceStore[] = [];
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });
    const open = async () => {
      const store = await target.openEmpty();
      opened.push(store);
      return store;
    };

    it('gives back each entry as the same plain object, key for key', async () => {
      const store = await open();
      await store.sessions.append('full', FULL_ENTRIES);
      const loaded = await store.sessions.load('full');
      const expected = FULL_ENTRIES.map((entry, index) =>
        expectedStored('full', index + 1, entry, entry.createdAt as number),
      );
      expect(loaded).toStrictEqual(expected);
      // Key order too: a history that goes back out (a provider request, a JSONL export) keeps it.
      expect(loaded.map((entry) => JSON.stringify(entry))).toEqual(expected.map((entry) => JSON.stringify(entry)));
      for (const entry of loaded) {
        expect(Object.getPrototypeOf(entry)).toBe(Object.prototype);
        expect(Object.getPrototypeOf(entry.message)).toBe(Object.prototype);
      }
      expect(typeof loaded[0]?.seq).toBe('number');
      expect(typeof loaded[0]?.createdAt).toBe('number');
    });

    it('keeps the stored entries of every kind in the export', async () => {
      const store = await open();
      await store.sessions.append('full', FULL_ENTRIES);
      const lines = (await store.sessions.exportJsonl('full')).trim().split('\n').slice(1);
      expect(lines.map((line) => (JSON.parse(line) as { message: unknown }).message)).toEqual(
        FULL_ENTRIES.map((entry) => entry.message),
      );
    });

    it('lets a load that overlaps a write see the whole batch or none of it', async () => {
      const store = await open();
      // Larger than one INSERT statement of the store (500 rows), so the write takes several steps.
      const batch: SessionEntry[] = Array.from({ length: 1200 }, (_, index) => ({
        message: { role: 'user', content: `message ${index}` },
      }));
      let writing = true;
      const appended = store.sessions.append('overlap', batch).finally(() => {
        writing = false;
      });
      const seen = new Set<number>();
      while (writing) seen.add((await store.sessions.load('overlap')).length);
      await appended;
      seen.add((await store.sessions.load('overlap')).length);
      expect([...seen].filter((count) => count !== 0 && count !== batch.length)).toEqual([]);
      expect(seen.has(batch.length)).toBe(true);
    });

    it('fails with a database StoreError naming the session when a stored row is not JSON', async () => {
      const backend = await target.openEmptyBackend();
      await migrateStore(backend);
      const sessions = createWorkspaceSessionStore(backend, async () => undefined);
      await sessions.append('corrupt', CONVERSATION);
      await backend.write((transaction) =>
        sql`UPDATE messages SET content = ${'[{"type":"text",'} WHERE session_id = ${'corrupt'} AND seq = 3`.execute(
          transaction,
        ),
      );
      await backend.close();
      const store = await target.reopen();
      opened.push(store);
      const error = await rejection(store.sessions.load('corrupt'));
      expect(error.reason).toBe('database');
      expect(error.message).toMatch(/^Loading session corrupt failed: .*JSON/);
      expect(error.cause).toBeInstanceOf(SyntaxError);
      const exported = await rejection(store.sessions.exportJsonl('corrupt'));
      expect(exported.reason).toBe('database');
      expect(exported.message).toMatch(/^Exporting session corrupt failed: .*JSON/);
      // The other sessions still load.
      await store.sessions.append('fine', CONVERSATION.slice(0, 1));
      expect(await store.sessions.load('fine')).toHaveLength(1);
    });
  });
}
