import type { UserContentBlock } from '@boxagnts/api';
import type { SessionEntry } from '@boxagnts/query';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rejection, type StoreContractTarget } from './store-contract-fixtures.test-suite.js';
import type { WorkspaceStore } from './store-types.js';

/** One user message holding every transcript block kind and a document with a context. */
export const TRANSCRIPT_BLOCKS: UserContentBlock[] = [
  { type: 'user_local_command_output', command: 'git status --short', output: ' M wombat.ts\n' },
  { type: 'user_command', name: 'review', args: 'src/numbat' },
  { type: 'user_memory_input', key: 'style', value: 'always use quokka-case' },
  { type: 'system_api_error', message: 'overloaded: the platypus server is busy', retrySecs: 30 },
  { type: 'collapsed_read_search', toolName: 'grep', paths: ['src/echidna.ts', 'src/bilby/**'] },
  { type: 'task_assignment', id: 'task-7', subject: 'Fix the dingo parser', description: 'It drops kangaroo tokens.' },
  {
    type: 'document',
    source: { type: 'base64', data: 'JVBERi0xLjQK', mediaType: 'application/pdf' },
    title: 'Cassowary report',
    context: 'The wallaby team wrote it; cite page numbers.',
  },
];

/**
 * Transcript blocks of @boxagnts/api in the store, on every backend: accepted in user messages,
 * given back byte for byte, searchable by their text, carried through JSONL export and import.
 */
export function defineTranscriptContract(name: string, target: StoreContractTarget): void {
  describe(`store transcript blocks: ${name}`, () => {
    let store: WorkspaceStore;
    beforeEach(async () => {
      store = await target.openEmpty();
    });
    afterEach(async () => {
      await store.close();
    });

    const entries: SessionEntry[] = [
      { message: { role: 'user', content: TRANSCRIPT_BLOCKS } },
      { message: { role: 'assistant', content: [{ type: 'text', text: 'On it.' }] } },
    ];

    it('stores every kind and gives it back exactly', async () => {
      await store.sessions.append('t', entries);
      const loaded = await store.sessions.load('t');
      expect(loaded.map((entry) => entry.message)).toEqual(entries.map((entry) => entry.message));
      expect(JSON.stringify(loaded[0]?.message.content)).toBe(JSON.stringify(TRANSCRIPT_BLOCKS));
    });

    it('finds each kind by its text', async () => {
      await store.sessions.append('t', entries);
      for (const word of [
        'wombat', // command output
        'numbat', // command arguments
        'quokka', // memory value
        'platypus', // API error
        'echidna', // collapsed paths
        'kangaroo', // task description
        'Cassowary', // document title
        'wallaby', // document context
      ]) {
        const hits = await store.sessions.search(word);
        expect(
          hits.map((hit) => [hit.sessionId, hit.seq]),
          word,
        ).toEqual([['t', 1]]);
        expect(hits[0]?.snippet.toLowerCase()).toContain(`[${word.toLowerCase()}]`);
      }
    });

    it('exports and imports them in JSONL unchanged', async () => {
      await store.sessions.append('t', entries);
      const jsonl = await store.sessions.exportJsonl('t');
      expect(jsonl).toContain('"type":"task_assignment"');
      await store.sessions.importJsonl(jsonl, { id: 't-copy' });
      expect((await store.sessions.load('t-copy')).map((entry) => entry.message)).toEqual(
        entries.map((entry) => entry.message),
      );
    });

    it('refuses a malformed transcript block whole, naming the field', async () => {
      const bad: unknown[] = [
        { type: 'user_command', name: 'review' }, // args missing
        { type: 'collapsed_read_search', toolName: 'grep', paths: 'src' }, // not a list
        { type: 'system_api_error', message: 'x', retrySecs: -1 },
        { type: 'task_assignment', id: 7, subject: 's', description: 'd' },
        { type: 'document', source: { type: 'url', url: 'u' }, context: 42 },
      ];
      for (const block of bad) {
        const error = await rejection(
          store.sessions.append('bad', [{ message: { role: 'user', content: [block] } } as unknown as SessionEntry]),
        );
        expect(error.reason).toBe('invalid-input');
        expect(error.message).toContain('content.0');
      }
      // Transcript blocks are user content: an assistant message cannot hold one.
      const assistant = { message: { role: 'assistant', content: [TRANSCRIPT_BLOCKS[0]] } };
      expect((await rejection(store.sessions.append('bad', [assistant as unknown as SessionEntry]))).reason).toBe(
        'invalid-input',
      );
      expect(await store.sessions.get('bad')).toBeUndefined();
    });
  });
}
