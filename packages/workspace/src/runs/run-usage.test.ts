import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAnthropicMessagesProvider } from '@boxagnts/api';
import { type QueryEvent, runQuery } from '@boxagnts/query';
import { type MockScript, type MockServer, startMockServer } from '@boxagnts/testkit';
import { agentTool, defineTool, textResult } from '@boxagnts/tools';
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

const readConfig = defineTool({
  name: 'read_config',
  description: 'Reads a config file.',
  inputSchema: z.object({ path: z.string() }),
  permission: 'read-only',
  execute: async () => textResult('port = 8000'),
});

/** Runs `runQuery` over the mock server with the workspace store as its session store. */
async function run(script: MockScript, withSubAgents: boolean): Promise<QueryEvent[]> {
  directory = await mkdtemp(join(tmpdir(), 'boxagnts-run-usage-'));
  store = await openStore({ kind: 'sqlite', path: join(directory, 'store.db') });
  mock = await startMockServer({ script });
  const provider = createAnthropicMessagesProvider({
    baseURL: mock.url,
    apiKey: 'usage-test-key',
    retry: { maxRetries: 0 },
  });
  const events: QueryEvent[] = [];
  for await (const event of runQuery({
    provider,
    messages: [{ role: 'user', content: 'Which port does config.toml set?' }],
    tools: withSubAgents ? [agentTool, readConfig] : [readConfig],
    toolContext: { root: directory, sessionId: SESSION },
    config: { model: 'claude-sonnet-4-6', date: '2026-12-01', maxTurns: 4 },
    session: { store: store.sessions, sessionId: SESSION },
    ...(withSubAgents ? { subAgents: { model: 'claude-haiku-4-5' } } : {}),
  })) {
    events.push(event);
  }
  return events;
}

describe('a real run stored in a workspace', () => {
  it('records every model call of runQuery, so store.usage.report() shows them', async () => {
    const events = await run(
      {
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
      false,
    );
    const done = events.at(-1);
    expect(done?.type === 'done' && done.outcome.reason).toBe('end_turn');
    expect(mock?.requests).toHaveLength(2);
    const usage = store!.usage;
    expect(
      (await usage.report('session')).map((row) => [row.key, row.calls, row.inputTokens, row.outputTokens]),
    ).toEqual([[SESSION, 2, 720, 52]]);
    expect((await usage.report('purpose')).map((row) => [row.key, row.calls])).toEqual([['turn', 2]]);
    expect((await usage.report('provider')).map((row) => row.key)).toEqual(['anthropic']);
    const [byModel] = await usage.report('model');
    expect(byModel?.key).toBe('claude-sonnet-4-6');
    expect(byModel?.costUsd).toBeGreaterThan(0);
    expect((await store!.sessions.load(SESSION)).map((entry) => entry.message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it("stores a sub-agent's transcript as a child session and its calls under its sub-agent", async () => {
    const usage = { input: 1000, output: 10 };
    await run(
      {
        rules: [
          {
            match: { model: 'claude-haiku-4-5' },
            steps: [
              { content: [{ type: 'tool_call', name: 'read_config', input: { path: 'a.toml' } }], usage },
              { text: 'a.toml sets port 8000.', usage },
            ],
          },
        ],
        steps: [
          {
            content: [
              { type: 'tool_call', name: 'agent', input: { description: 'Read the config', prompt: 'Read a.toml.' } },
            ],
            usage,
          },
          { text: 'The sub-agent says port 8000.', usage },
        ],
      },
      true,
    );
    const sessions = store!.sessions;
    const children = await sessions.children(SESSION);
    expect(children.map((child) => [child.kind, child.parentSessionId, child.title])).toEqual([
      ['sub-agent', SESSION, 'Read the config'],
    ]);
    const childId = children[0]!.id;
    expect((await sessions.load(childId)).map((entry) => entry.message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect((await sessions.search('a.toml', { sessionId: childId })).length).toBeGreaterThan(0);
    const bySubAgent = (await store!.usage.report('subAgent')).map((row) => [row.key === '' ? '' : 'child', row.calls]);
    expect(bySubAgent).toEqual([
      ['', 2],
      ['child', 2],
    ]);
    expect((await store!.usage.report('session')).map((row) => [row.key, row.calls])).toEqual(
      [
        [SESSION, 2],
        [childId, 2],
      ].sort(),
    );
  });
});
