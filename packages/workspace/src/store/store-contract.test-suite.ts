import type { Message } from '@boxagnts/api';
import { INTERRUPTED_TOOL_RESULT, type SessionEntry } from '@boxagnts/query';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineCronContract } from '../cron/cron-store-contract.test-suite.js';
import { LATEST_SCHEMA_VERSION } from './migrate.js';
import {
  CONVERSATION,
  rejection,
  type StoreContractTarget,
  texts,
  usage,
} from './store-contract-fixtures.test-suite.js';
import { defineLoadContract } from './store-load-contract.test-suite.js';
import { defineMigrationContract } from './store-migration-contract.test-suite.js';
import { defineRunRecordsContract } from './store-run-records-contract.test-suite.js';
import { defineTranscriptContract } from './store-transcript-contract.test-suite.js';
import type { WorkspaceStore } from './store-types.js';

export type { StoreContractTarget };

/**
 * The one store test suite, run against every backend (SQLite and PostgreSQL), so both behave the
 * same for every operation of {@link WorkspaceStore}.
 */
export function defineStoreContract(name: string, target: StoreContractTarget): void {
  describe(`store contract: ${name}`, () => {
    let store: WorkspaceStore;
    const extra: WorkspaceStore[] = [];
    beforeEach(async () => {
      store = await target.openEmpty();
    });
    afterEach(async () => {
      for (const other of extra.splice(0)) await other.close();
      await store.close();
    });

    it('opens at the latest schema version with the configured kind', async () => {
      expect(store.kind).toBe(target.kind);
      expect(await store.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
    });

    it('gives back appended entries exactly, numbered across batches, with the session row created', async () => {
      await store.sessions.append('s1', CONVERSATION.slice(0, 2));
      await store.sessions.append('s1', CONVERSATION.slice(2));
      const loaded = await store.sessions.load('s1');
      expect(loaded.map((entry) => (entry as { seq?: number }).seq)).toEqual([1, 2, 3, 4]);
      expect(texts(loaded)).toEqual(texts(CONVERSATION));
      expect(loaded[1]).toMatchObject({ model: 'claude-test', usage: usage(120, 40), createdAt: 1_700_000_001_000 });
      expect(loaded[1]?.message.providerMetadata).toEqual({ anthropic: { stopSequence: null } });
      expect(loaded[3]?.createdAt).toBeGreaterThan(1_700_000_002_000);
      const session = await store.sessions.get('s1');
      expect(session).toMatchObject({ id: 's1', messageCount: 4, title: 'Please rename the zebra file — ünïcödé ✓' });
      expect(session?.updatedAt).toBeGreaterThanOrEqual(session?.createdAt ?? Number.POSITIVE_INFINITY);
    });

    it('returns no entries for an unknown session and ignores an empty batch', async () => {
      expect(await store.sessions.load('nobody')).toEqual([]);
      await store.sessions.append('empty', []);
      expect(await store.sessions.get('empty')).toBeUndefined();
    });

    it('rejects a bad batch whole, naming the entry, and leaves earlier messages as they were', async () => {
      await store.sessions.append('s2', CONVERSATION.slice(0, 1));
      const bad = [CONVERSATION[1], { message: { role: 'robot', content: 'beep' } }] as unknown as SessionEntry[];
      const error = await rejection(store.sessions.append('s2', bad));
      expect(error.reason).toBe('invalid-input');
      expect(error.message).toContain('Entry 1');
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      const cycle = [
        { message: { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'y', input: cyclic }] } },
      ];
      expect((await rejection(store.sessions.append('s2', cycle as SessionEntry[]))).reason).toBe('invalid-input');
      expect((await rejection(store.sessions.append('', CONVERSATION))).reason).toBe('invalid-input');
      expect(texts(await store.sessions.load('s2'))).toEqual(texts(CONVERSATION.slice(0, 1)));
      expect((await store.sessions.get('s2'))?.messageCount).toBe(1);
    });

    it('keeps every batch of concurrent appends contiguous and numbered without gaps', async () => {
      const batches = Array.from({ length: 20 }, (_, index) => [
        { message: { role: 'user', content: `batch ${index} first` } },
        { message: { role: 'assistant', content: [{ type: 'text', text: `batch ${index} second` }] } },
      ]) as SessionEntry[][];
      await Promise.all(batches.map((batch) => store.sessions.append('busy', batch)));
      const loaded = await store.sessions.load('busy');
      expect(loaded.map((entry) => (entry as { seq?: number }).seq)).toEqual(
        Array.from({ length: 40 }, (_, index) => index + 1),
      );
      for (let index = 0; index < loaded.length; index += 2) {
        const first = loaded[index]?.message.content as string;
        const second = loaded[index + 1]?.message.content as Array<{ text: string }>;
        expect(second[0]?.text).toBe(first.replace('first', 'second'));
      }
      expect((await store.sessions.get('busy'))?.messageCount).toBe(40);
    });

    it('appends from two connections at once without losing or repeating a seq', async () => {
      const second = await target.reopen();
      extra.push(second);
      const writes = Array.from({ length: 10 }, (_, index) =>
        (index % 2 === 0 ? store : second).sessions.append('shared', [
          { message: { role: 'user', content: `write ${index}` } },
        ]),
      );
      await Promise.all(writes);
      const loaded = await store.sessions.load('shared');
      expect(loaded).toHaveLength(10);
      expect(new Set(loaded.map((entry) => entry.message.content)).size).toBe(10);
    });

    it('creates, gets, lists, renames and deletes sessions', async () => {
      const created = await store.sessions.create({ id: 'c1', title: 'First', agent: 'coder', model: 'm1' });
      expect(created).toMatchObject({ id: 'c1', title: 'First', agent: 'coder', model: 'm1', messageCount: 0 });
      const generated = await store.sessions.create({});
      expect(generated.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(generated.title).toBe('');
      expect((await rejection(store.sessions.create({ id: 'c1' }))).reason).toBe('conflict');
      await store.sessions.append('c1', CONVERSATION.slice(0, 1));
      const listed = await store.sessions.list();
      expect(listed.map((session) => session.id).sort()).toEqual(['c1', generated.id].sort());
      expect((await store.sessions.list({ limit: 1, offset: 1 })).length).toBe(1);
      await store.sessions.rename('c1', 'Renamed');
      expect((await store.sessions.get('c1'))?.title).toBe('Renamed');
      expect((await rejection(store.sessions.rename('nope', 'x'))).reason).toBe('not-found');
      await store.sessions.delete('c1');
      expect(await store.sessions.get('c1')).toBeUndefined();
      expect(await store.sessions.load('c1')).toEqual([]);
      expect(await store.sessions.search('zebra')).toEqual([]);
      expect((await rejection(store.sessions.delete('c1'))).reason).toBe('not-found');
    });

    it('treats quotes and SQL in ids, titles and queries as plain data', async () => {
      const id = "x'); DROP TABLE sessions; --";
      await store.sessions.append(id, [{ message: { role: 'user', content: 'it\'s a "quoted" title\'); --' } }]);
      await store.sessions.rename(id, 'O\'Brien\'s "session"');
      expect(await store.sessions.get(id)).toMatchObject({ id, title: 'O\'Brien\'s "session"', messageCount: 1 });
      expect((await store.sessions.search('it\'s "quoted"')).map((hit) => hit.sessionId)).toEqual([id]);
      expect((await store.sessions.list()).map((session) => session.id)).toEqual([id]);
    });

    it('lists the most recently updated session first', async () => {
      await store.sessions.create({ id: 'old', title: 'old' });
      await store.sessions.create({ id: 'new', title: 'new' });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await store.sessions.append('old', CONVERSATION.slice(0, 1));
      expect((await store.sessions.list()).map((session) => session.id)).toEqual(['old', 'new']);
    });

    it('forks a session at a seq, leaving the source untouched', async () => {
      await store.sessions.append('src', CONVERSATION);
      const fork = await store.sessions.fork('src', 2, { id: 'fork1' });
      expect(fork).toMatchObject({ id: 'fork1', parentSessionId: 'src', forkedAtSeq: 2, messageCount: 2 });
      expect(fork.title).toBe(`${CONVERSATION[0]?.message.content as string} (fork)`);
      expect(texts(await store.sessions.load('fork1'))).toEqual(texts(CONVERSATION.slice(0, 2)));
      await store.sessions.append('fork1', [{ message: { role: 'user', content: 'a different path' } }]);
      expect((await store.sessions.load('fork1')).map((entry) => (entry as { seq?: number }).seq)).toEqual([1, 2, 3]);
      expect(texts(await store.sessions.load('src'))).toEqual(texts(CONVERSATION));
      expect((await store.sessions.search('zebra', { sessionId: 'fork1' })).map((hit) => hit.seq)).toEqual([1]);
      expect((await rejection(store.sessions.fork('src', 5))).reason).toBe('invalid-input');
      expect((await rejection(store.sessions.fork('src', 0))).reason).toBe('invalid-input');
      expect((await rejection(store.sessions.fork('missing', 1))).reason).toBe('not-found');
      expect((await rejection(store.sessions.fork('src', 1, { id: 'fork1' }))).reason).toBe('conflict');
      // Deleting the parent keeps the fork and forgets the link.
      await store.sessions.delete('src');
      expect((await store.sessions.get('fork1'))?.parentSessionId).toBeUndefined();
      expect(await store.sessions.load('fork1')).toHaveLength(3);
    });

    it('searches message text with marked snippets, per session and with a limit', async () => {
      await store.sessions.append('a', CONVERSATION);
      await store.sessions.append('b', [
        { message: { role: 'user', content: 'Where does the okapi live? In the forest.' } },
      ]);
      const hits = await store.sessions.search('okapi');
      expect(hits.map((hit) => `${hit.sessionId}:${hit.seq}:${hit.role}`).sort()).toEqual([
        'a:3:user',
        'a:4:assistant',
        'b:1:user',
      ]);
      for (const hit of hits) expect(hit.snippet.toLowerCase()).toContain('[okapi]');
      expect((await store.sessions.search('OKAPI forest')).map((hit) => hit.sessionId)).toEqual(['b']);
      expect((await store.sessions.search('okapi', { sessionId: 'b' })).map((hit) => hit.seq)).toEqual([1]);
      expect(await store.sessions.search('okapi', { limit: 1 })).toHaveLength(1);
      // Operators and quotes are plain words, never query syntax.
      expect(await store.sessions.search('"okapi" OR (NEAR* forest')).toEqual([]);
      expect(await store.sessions.search('  ((( "" ')).toEqual([]);
      // Tool inputs are not indexed; tool results are.
      expect(await store.sessions.search('alpha')).toEqual([]);
      expect((await store.sessions.search('renamed')).map((hit) => hit.seq)).toEqual([3]);
    });

    it('ranks search hits best first, ties by session and seq', async () => {
      const say = (content: string): SessionEntry => ({ message: { role: 'user', content } });
      await store.sessions.append('b', [say('an okapi here'), say('okapi okapi okapi'), say('a quiet forest')]);
      await store.sessions.append('a', [say('an okapi here'), say('nothing at all'), say('an okapi here')]);
      // Words in few messages, so every backend's ranking counts them as telling.
      await store.sessions.append('c', [say('rivers and hills'), say('clouds over hills'), say('a long road')]);
      const order = async (query: string, options?: { limit?: number }) =>
        (await store.sessions.search(query, options)).map((hit) => `${hit.sessionId}:${hit.seq}`);
      expect(await order('okapi')).toEqual(['b:2', 'a:1', 'a:3', 'b:1']);
      expect(await order('okapi', { limit: 2 })).toEqual(['b:2', 'a:1']);
      expect(await order('an okapi')).toEqual(['a:1', 'a:3', 'b:1']);
    });

    it('exports JSONL and imports it back, under its own id or a new one', async () => {
      await store.sessions.append('exp', CONVERSATION);
      await store.sessions.rename('exp', 'Export me');
      const jsonl = await store.sessions.exportJsonl('exp');
      const lines = jsonl.trimEnd().split('\n');
      expect(lines).toHaveLength(5);
      expect(JSON.parse(lines[0] as string)).toMatchObject({
        type: 'session',
        version: 1,
        session: { id: 'exp', title: 'Export me' },
      });
      expect(JSON.parse(lines[2] as string)).toMatchObject({ type: 'message', seq: 2, model: 'claude-test' });
      const copy = await store.sessions.importJsonl(jsonl, { id: 'copy' });
      expect(copy).toMatchObject({ id: 'copy', title: 'Export me', messageCount: 4 });
      expect(await store.sessions.load('copy')).toEqual(
        (await store.sessions.load('exp')).map((entry) => ({ ...entry, sessionId: 'copy' })),
      );
      expect((await rejection(store.sessions.importJsonl(jsonl))).reason).toBe('conflict');
      await store.sessions.delete('exp');
      expect((await store.sessions.importJsonl(jsonl)).id).toBe('exp');
      expect((await rejection(store.sessions.exportJsonl('missing'))).reason).toBe('not-found');
    });

    it('rejects a bad import naming the line, and writes nothing', async () => {
      await store.sessions.append('good', CONVERSATION);
      const lines = (await store.sessions.exportJsonl('good')).trimEnd().split('\n');
      const cases: Array<[string, number]> = [
        [[lines[0], lines[1], '{"type":"message","seq":2,', lines[3]].join('\n'), 3],
        [[lines[0], lines[1], lines[3]].join('\n'), 3],
        [[lines[0], lines[1], '{"type":"message","seq":2,"message":{"role":"robot","content":"x"}}'].join('\n'), 3],
        [[lines[1], lines[0]].join('\n'), 1],
        ['', 1],
      ];
      for (const [text, line] of cases) {
        const error = await rejection(store.sessions.importJsonl(text, { id: 'bad' }));
        expect(error.reason).toBe('invalid-input');
        expect(error.line).toBe(line);
        expect(error.message).toContain(`Line ${line}`);
      }
      expect(await store.sessions.get('bad')).toBeUndefined();
      expect(await store.sessions.load('bad')).toEqual([]);
    });

    it('resumes after the latest compaction, with an interrupted tool call repaired', async () => {
      const call: Message = { role: 'assistant', content: [{ type: 'tool_use', id: 't9', name: 'edit', input: {} }] };
      await store.sessions.append('r', [
        { message: { role: 'user', content: 'one' } },
        { message: { role: 'assistant', content: [{ type: 'text', text: 'two' }] } },
        { message: { role: 'user', content: 'three' } },
        { message: { role: 'user', content: '[Conversation summary] S' }, compaction: { keptMessages: 1 } },
        { message: call },
      ]);
      const history = await store.sessions.resume('r');
      expect(history.map((message) => (typeof message.content === 'string' ? message.content : message.role))).toEqual([
        '[Conversation summary] S',
        'three',
        'assistant',
        'user',
      ]);
      expect(history.at(-1)?.content).toEqual([
        { type: 'tool_result', toolUseId: 't9', content: INTERRUPTED_TOOL_RESULT, isError: true },
      ]);
      expect((await store.sessions.load('r'))[3]?.compaction).toEqual({ keptMessages: 1 });
    });

    it('keeps what was acknowledged across close and reopen', async () => {
      await store.sessions.append('durable', CONVERSATION);
      await store.usage.record({ provider: 'p', model: 'm', usage: usage(1, 1) });
      await store.close();
      store = await target.reopen();
      expect(texts(await store.sessions.load('durable'))).toEqual(texts(CONVERSATION));
      expect((await store.usage.report('provider'))[0]?.calls).toBe(1);
    });

    it('fails with a closed error after close', async () => {
      const second = await target.reopen();
      await second.close();
      expect((await rejection(second.sessions.load('s'))).reason).toBe('closed');
      expect((await rejection(second.sessions.append('s', CONVERSATION))).reason).toBe('closed');
      expect((await rejection(second.usage.report('day'))).reason).toBe('closed');
    });

    it('records usage and reports it by day, model, provider, agent and session', async () => {
      const day1 = Date.UTC(2026, 0, 1, 23, 59);
      const day2 = Date.UTC(2026, 0, 2, 0, 1);
      const reasoning = {
        input: { total: 100, noCache: 40, cacheRead: 50, cacheWrite: 10 },
        output: { total: 30, text: 20, reasoning: 10 },
      };
      await store.usage.record({
        sessionId: 's1',
        provider: 'anthropic',
        model: 'a1',
        agent: 'main',
        usage: reasoning,
        costUsd: 0.25,
        createdAt: day1,
      });
      await store.usage.record({
        sessionId: 's1',
        provider: 'anthropic',
        model: 'a1',
        agent: 'main',
        subAgent: 'sub-1',
        usage: usage(10, 5),
        costUsd: 0.5,
        createdAt: day2,
      });
      await store.usage.record({ provider: 'openai', model: 'o1', usage: usage(7, 3), createdAt: day2 });
      expect(await store.usage.report('day')).toEqual([
        {
          key: '2026-01-01',
          calls: 1,
          inputTokens: 100,
          outputTokens: 30,
          cacheReadTokens: 50,
          cacheWriteTokens: 10,
          reasoningTokens: 10,
          costUsd: 0.25,
        },
        {
          key: '2026-01-02',
          calls: 2,
          inputTokens: 17,
          outputTokens: 8,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          reasoningTokens: 0,
          costUsd: 0.5,
        },
      ]);
      const byModel = await store.usage.report('model');
      expect(byModel.map((row) => [row.key, row.calls, row.inputTokens, row.costUsd])).toEqual([
        ['a1', 2, 110, 0.75],
        ['o1', 1, 7, 0],
      ]);
      expect((await store.usage.report('provider')).map((row) => row.key)).toEqual(['anthropic', 'openai']);
      expect((await store.usage.report('agent')).map((row) => [row.key, row.calls])).toEqual([
        ['', 1],
        ['main', 2],
      ]);
      expect((await store.usage.report('session')).map((row) => [row.key, row.calls])).toEqual([
        ['', 1],
        ['s1', 2],
      ]);
      const sinceDay2 = await store.usage.report('model', { since: day2 });
      expect(sinceDay2.map((row) => [row.key, row.calls])).toEqual([
        ['a1', 1],
        ['o1', 1],
      ]);
      expect(await store.usage.report('model', { until: day1 })).toEqual([]);
      const bad = { provider: 'p', model: 'm', usage: usage(-1, 0) };
      expect((await rejection(store.usage.record(bad))).reason).toBe('invalid-input');
      expect((await rejection(store.usage.report('week' as 'day'))).reason).toBe('invalid-input');
      expect((await store.usage.report('provider')).map((row) => row.calls)).toEqual([2, 1]);
    });
  });

  defineLoadContract(name, target);
  defineRunRecordsContract(name, target);
  defineTranscriptContract(name, target);
  defineMigrationContract(name, target);
  defineCronContract(name, target);
}
