import type { ModelCallRecord } from '@boxagnts/query';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_MESSAGE_BYTES } from './session-writes.js';
import { rejection, type StoreContractTarget, usage } from './store-contract-fixtures.test-suite.js';
import type { WorkspaceStore } from './store-types.js';

const call = (overrides: Partial<ModelCallRecord>): ModelCallRecord => ({
  sessionId: 'parent',
  provider: 'anthropic',
  model: 'claude-test',
  purpose: 'turn',
  usage: usage(100, 10),
  costUsd: 0.01,
  ...overrides,
});

/**
 * What the query loop records through the session-store seam, run against every backend: each
 * model call as a usage record with its purpose, and sub-agent transcripts as child sessions.
 */
export function defineRunRecordsContract(name: string, target: StoreContractTarget): void {
  describe(`store run records: ${name}`, () => {
    let store: WorkspaceStore;
    beforeEach(async () => {
      store = await target.openEmpty();
    });
    afterEach(async () => {
      await store.close();
    });

    it('records every model call through sessions.recordUsage and reports it by purpose and sub-agent', async () => {
      await store.sessions.recordUsage(call({}));
      await store.sessions.recordUsage(call({ purpose: 'compaction', usage: usage(500, 50), costUsd: 0.05 }));
      await store.sessions.recordUsage(call({ sessionId: 'child-1', subAgent: 'sub-1', agent: 'explore' }));
      await store.sessions.recordUsage(call({ purpose: 'summary', costUsd: undefined }));
      await store.usage.record({ provider: 'openai', model: 'o1', usage: usage(7, 3) });
      expect(
        (await store.usage.report('purpose')).map((row) => [row.key, row.calls, row.inputTokens, row.costUsd]),
      ).toEqual([
        ['', 1, 7, 0],
        ['compaction', 1, 500, 0.05],
        ['summary', 1, 100, 0],
        ['turn', 2, 200, 0.02],
      ]);
      expect((await store.usage.report('subAgent')).map((row) => [row.key, row.calls])).toEqual([
        ['', 4],
        ['sub-1', 1],
      ]);
      expect((await store.usage.report('session')).map((row) => [row.key, row.calls])).toEqual([
        ['', 1],
        ['child-1', 1],
        ['parent', 3],
      ]);
    });

    it('refuses a bad usage record whole, with an invalid-input error naming the field', async () => {
      for (const bad of [
        call({ purpose: 'Turn; DROP TABLE usage_records' as never }),
        call({ sessionId: '' }),
        call({ usage: usage(-1, 0) }),
        call({ costUsd: Number.NaN }),
      ]) {
        const error = await rejection(store.sessions.recordUsage(bad));
        expect(error.reason).toBe('invalid-input');
        expect(error.message).toMatch(/purpose|sessionId|usage|costUsd/);
      }
      expect(await store.usage.report('purpose')).toEqual([]);
    });

    it('stores a sub-agent transcript as a child session, listed and loadable, idempotently', async () => {
      await store.sessions.append('parent', [{ message: { role: 'user', content: 'Split the work' } }]);
      await store.sessions.createChildSession({
        sessionId: 'child-1',
        parentSessionId: 'parent',
        agent: 'explore',
        title: 'Find the config files',
      });
      // A resumed run announces the same child again: nothing changes.
      await store.sessions.createChildSession({ sessionId: 'child-1', parentSessionId: 'parent', agent: 'explore' });
      await store.sessions.append('child-1', [
        { message: { role: 'user', content: 'Find the config files' } },
        { message: { role: 'assistant', content: [{ type: 'text', text: 'config.toml is at the root.' }] } },
      ]);
      await store.sessions.createChildSession({ sessionId: 'child-2', parentSessionId: 'parent' });
      await store.sessions.fork('parent', 1, { id: 'fork-1' });
      expect(await store.sessions.get('child-1')).toMatchObject({
        kind: 'sub-agent',
        parentSessionId: 'parent',
        agent: 'explore',
        title: 'Find the config files',
        messageCount: 2,
      });
      expect((await store.sessions.get('child-1'))?.forkedAtSeq).toBeUndefined();
      expect((await store.sessions.get('parent'))?.kind).toBe('session');
      expect((await store.sessions.get('fork-1'))?.kind).toBe('fork');
      expect((await store.sessions.children('parent')).map((child) => [child.id, child.kind]).sort()).toEqual([
        ['child-1', 'sub-agent'],
        ['child-2', 'sub-agent'],
        ['fork-1', 'fork'],
      ]);
      expect(await store.sessions.children('child-1')).toEqual([]);
      expect((await store.sessions.load('child-1')).map((entry) => entry.message.role)).toEqual(['user', 'assistant']);
      expect((await store.sessions.search('config.toml')).map((hit) => hit.sessionId)).toEqual(['child-1']);
      // The link survives an export and import next to its parent.
      const copy = await store.sessions.importJsonl(await store.sessions.exportJsonl('child-1'), { id: 'child-copy' });
      expect(copy).toMatchObject({ kind: 'sub-agent', parentSessionId: 'parent' });
    });

    it('creates a missing parent, links a child whose messages came first, and refuses conflicts and cycles', async () => {
      await store.sessions.createChildSession({ sessionId: 'orphan-child', parentSessionId: 'new-parent' });
      expect(await store.sessions.get('new-parent')).toMatchObject({ kind: 'session', messageCount: 0 });
      await store.sessions.append('early', [{ message: { role: 'user', content: 'appended before the link' } }]);
      await store.sessions.createChildSession({ sessionId: 'early', parentSessionId: 'new-parent', title: 'Early' });
      expect(await store.sessions.get('early')).toMatchObject({
        kind: 'sub-agent',
        parentSessionId: 'new-parent',
        messageCount: 1,
      });
      const elsewhere = await rejection(
        store.sessions.createChildSession({ sessionId: 'early', parentSessionId: 'other-parent' }),
      );
      expect(elsewhere.reason).toBe('conflict');
      expect(await store.sessions.get('other-parent')).toBeUndefined();
      // new-parent -> early; making new-parent a child of early would close a loop.
      const cycle = await rejection(
        store.sessions.createChildSession({ sessionId: 'new-parent', parentSessionId: 'early' }),
      );
      expect(cycle.reason).toBe('conflict');
      expect(cycle.message).toContain('cycle');
      for (const bad of [
        { sessionId: 'same', parentSessionId: 'same' },
        { sessionId: '', parentSessionId: 'p' },
        { sessionId: 'c', parentSessionId: 'p\u0000' },
        { sessionId: 'c', parentSessionId: 'p', title: 'x'.repeat(1001) },
      ]) {
        expect((await rejection(store.sessions.createChildSession(bad))).reason).toBe('invalid-input');
      }
      expect(await store.sessions.get('c')).toBeUndefined();
    });

    it('announces many children of one parent at once without losing one', async () => {
      await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          store.sessions.createChildSession({ sessionId: `c${index}`, parentSessionId: 'busy-parent' }),
        ),
      );
      expect((await store.sessions.children('busy-parent')).length).toBe(30);
    });

    it('refuses a message over the default cap whole, with a too-large StoreError, storing nothing', async () => {
      await store.sessions.append('big', [{ message: { role: 'user', content: 'before' } }]);
      const huge = 'x'.repeat(DEFAULT_MAX_MESSAGE_BYTES); // its JSON adds two quotes: just over the cap
      const batch = [
        { message: { role: 'user' as const, content: 'fine' } },
        { message: { role: 'assistant' as const, content: [{ type: 'text' as const, text: huge }] } },
      ];
      const error = await rejection(store.sessions.append('big', batch));
      expect(error.reason).toBe('too-large');
      const bytes = JSON.stringify(batch[1]?.message.content).length;
      expect(error.message).toContain(`Entry 1 of the batch for session big is ${bytes} bytes`);
      expect(error.message).toContain('maxMessageBytes');
      expect((await store.sessions.load('big')).map((entry) => entry.message.content)).toEqual(['before']);
      expect((await store.sessions.get('big'))?.messageCount).toBe(1);
      // A message just under the cap is stored and given back whole.
      const under = 'y'.repeat(DEFAULT_MAX_MESSAGE_BYTES - 2);
      await store.sessions.append('big', [{ message: { role: 'user', content: under } }]);
      const stored = (await store.sessions.load('big'))[1]?.message.content;
      expect(typeof stored === 'string' && stored.length).toBe(under.length);
    });

    it('keeps acknowledged usage records and child sessions across close and reopen', async () => {
      await store.sessions.createChildSession({ sessionId: 'kept-child', parentSessionId: 'kept' });
      await store.sessions.recordUsage(call({ sessionId: 'kept-child', subAgent: 'a1' }));
      await store.close();
      store = await target.reopen();
      expect((await store.sessions.get('kept-child'))?.parentSessionId).toBe('kept');
      expect((await store.usage.report('subAgent')).map((row) => [row.key, row.calls])).toEqual([['a1', 1]]);
    });
  });
}
