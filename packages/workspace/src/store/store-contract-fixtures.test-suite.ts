import type { SessionEntry } from '@boxagnts/query';
import type { StoreBackend } from './store-backend.js';
import { isStoreError, type StoreError } from './store-error.js';
import type { WorkspaceStore } from './store-types.js';

/** How the contract suite reaches one backend. */
export interface StoreContractTarget {
  kind: 'sqlite' | 'postgres';
  /** Opens a store on an empty database (the previous one is discarded). */
  openEmpty(): Promise<WorkspaceStore>;
  /** Opens the database of the last `openEmpty()` or `openEmptyBackend()` again, on a new connection. */
  reopen(): Promise<WorkspaceStore>;
  /** Opens an empty database without migrating it (the previous one is discarded). */
  openEmptyBackend(): Promise<StoreBackend>;
}

/** A usage with only input and output text tokens. */
export const usage = (input: number, output: number) => ({
  input: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  output: { total: output, text: output, reasoning: 0 },
});

/** A conversation with every kind of block the store must give back byte for byte. */
export const CONVERSATION: SessionEntry[] = [
  { message: { role: 'user', content: 'Please rename the zebra file — ünïcödé ✓' }, createdAt: 1_700_000_000_000 },
  {
    message: {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'The user wants a rename.', signature: 'c2lnbmF0dXJl' },
        { type: 'text', text: 'Renaming it now.', providerMetadata: { openai: { itemId: 'msg_1' } } },
        {
          type: 'tool_use',
          id: 'call_1',
          name: 'bash',
          input: { zeta: 1, alpha: ['mv', 'zebra.txt'], nested: { b: 2, a: 1 } },
        },
      ],
      providerMetadata: { anthropic: { stopSequence: null } },
    },
    model: 'claude-test',
    usage: usage(120, 40),
    createdAt: 1_700_000_001_000,
  },
  {
    message: {
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: 'call_1', content: 'renamed zebra.txt to okapi.txt' }],
    },
    createdAt: 1_700_000_002_000,
  },
  {
    message: { role: 'assistant', content: [{ type: 'text', text: 'Done: the okapi is in place.' }] },
    model: 'claude-test',
  },
];

/** The StoreError a call rejects with; fails the test when it succeeds or throws something else. */
export async function rejection(promise: Promise<unknown>): Promise<StoreError> {
  try {
    await promise;
  } catch (error) {
    if (isStoreError(error)) return error;
    throw error;
  }
  throw new Error('expected a StoreError, but the call succeeded');
}

/** Each entry's content as JSON, to compare histories exactly. */
export function texts(entries: readonly SessionEntry[]): string[] {
  return entries.map((entry) => JSON.stringify(entry.message.content));
}
