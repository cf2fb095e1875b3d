import { createProviderRegistry } from '@boxagnts/api';
import { agentTool, defineTool, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemorySessionStore } from '../session/session-store.js';
import { collect, type Harness, startHarness } from '../test/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usage = { input: 1000, output: 10 };
const note = defineTool({
  name: 'note',
  description: 'Notes a fact.',
  inputSchema: z.object({ text: z.string() }),
  permission: 'read-only',
  execute: async ({ text }) => textResult(`noted ${text}`),
});

describe('sub-agent transcripts and usage through the session store', () => {
  it("stores a child's messages in a child session and records every call with its sub-agent", async () => {
    harness = await startHarness({
      rules: [
        {
          match: { model: 'claude-haiku-4-5' },
          steps: [
            { content: [{ type: 'tool_call', name: 'note', input: { text: 'x' } }], usage },
            { text: 'child answer', usage },
          ],
        },
      ],
      steps: [
        {
          content: [{ type: 'tool_call', name: 'agent', input: { description: 'look', prompt: 'Look around.' } }],
          usage,
        },
        { text: 'parent answer', usage },
      ],
    });
    const store = createMemorySessionStore();
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Delegate a look' }],
      tools: [agentTool, note],
      toolContext: { root: harness.root, sessionId: 'cs1' },
      session: { store, sessionId: 'cs1' },
      config: { model: 'claude-sonnet-4-6' },
      subAgents: { model: 'claude-haiku-4-5' },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(store.childSessions()).toEqual([{ sessionId: 'cs1/agent-1-1', parentSessionId: 'cs1', title: 'look' }]);
    const child = await store.load('cs1/agent-1-1');
    expect(child.map((entry) => entry.message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(child[0]?.message.content).toBe('Look around.');
    const records = store.usageRecords();
    expect(records).toHaveLength(4);
    const childRecords = records.filter((record) => record.subAgent === 'agent-1-1');
    expect(childRecords).toHaveLength(2);
    expect(
      childRecords.every((record) => record.sessionId === 'cs1/agent-1-1' && record.model === 'claude-haiku-4-5'),
    ).toBe(true);
    expect(records.filter((record) => record.sessionId === 'cs1')).toHaveLength(2);
  });

  it('resolves a vendor/model override through the provider registry instead of the parent provider', async () => {
    harness = await startHarness({
      rules: [{ match: { model: 'gpt-4.1' }, steps: [{ text: 'answer from the other vendor', usage }] }],
      steps: [
        {
          content: [
            {
              type: 'tool_call',
              name: 'agent',
              input: { description: 'other', prompt: 'Hi.', model: 'openai/gpt-4.1' },
            },
          ],
          usage,
        },
        { text: 'parent answer', usage },
      ],
    });
    const providers = createProviderRegistry({
      env: { OPENAI_API_KEY: 'sk-test' },
      providerOptions: { openai: { baseURL: `${harness.mock.url}/v1`, retry: { maxRetries: 0 } } },
    });
    const { outcome, events } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Ask the other vendor' }],
      tools: [agentTool],
      toolContext: { root: harness.root, sessionId: 'cs2' },
      config: { model: 'claude-sonnet-4-6' },
      subAgents: { providers },
    });
    expect(outcome.reason === 'error' ? outcome.error : outcome.reason).toBe('end_turn');
    const child = harness.mock.requests.find((request) => (request.body as { model?: string }).model === 'gpt-4.1');
    // Sent over OpenAI's protocol with the registry's key, not to the parent's Anthropic provider.
    expect(child?.protocol).toMatch(/^openai/);
    expect(child?.headers.authorization).toMatch(/^Bearer /);
    const end = events.find((event) => event.type === 'tool-end' && event.name === 'agent');
    expect(end?.type === 'tool-end' && JSON.stringify(end.result.content)).toContain('answer from the other vendor');
  });

  it('fails the sub-agent with a clear error for an unknown vendor', async () => {
    harness = await startHarness({
      steps: [
        {
          content: [
            { type: 'tool_call', name: 'agent', input: { description: 'x', prompt: 'Hi.', model: 'nosuchvendor/m1' } },
          ],
          usage,
        },
        { text: 'parent answer', usage },
      ],
    });
    const { events } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Ask' }],
      tools: [agentTool],
      toolContext: { root: harness.root, sessionId: 'cs3' },
      config: { model: 'claude-sonnet-4-6' },
    });
    const end = events.find((event) => event.type === 'tool-end' && event.name === 'agent');
    expect(end?.type === 'tool-end' && end.result.isError).toBe(true);
    expect(end?.type === 'tool-end' && JSON.stringify(end.result.content)).toContain(
      'unknown provider \\"nosuchvendor\\"',
    );
    expect(harness.mock.requests).toHaveLength(2);
  });
});
