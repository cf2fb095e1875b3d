import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import type { Message } from '../../spec/message.js';
import type { LlmRequest } from '../../spec/request.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../../test/fixtures.js';
import { collect } from './anthropic.test.helpers.js';
import { type AnthropicMessagesSettings, createAnthropicMessagesProvider } from './anthropic-provider.js';

// A conversation with thinking and tool calls goes out, comes back, and goes out again: the second
// request must carry everything Anthropic needs to continue (signatures, redacted thinking, the
// tool_use the tool_result answers, server blocks) exactly as received.

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer();
});

afterAll(async () => {
  await mock.close();
});

beforeEach(() => {
  mock.clearRequests();
});

function provider(settings: AnthropicMessagesSettings = {}) {
  return createAnthropicMessagesProvider({ baseURL: mock.url, apiKey: 'roundtrip-key-0123456789', ...settings });
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const tools = [
  {
    name: 'read',
    description: 'Read a file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  },
  { name: 'screenshot', description: 'Take a screenshot', inputSchema: { type: 'object', properties: {} } },
];

interface WireBody {
  system?: unknown;
  tools?: Array<Record<string, unknown>>;
  messages: Array<{ role: string; content: unknown }>;
  thinking?: unknown;
  max_tokens?: number;
}

function body(index: number): WireBody {
  return mock.requests[index]?.body as WireBody;
}

describe('a thinking, tool-calling conversation', () => {
  it('replays signatures, redacted thinking and tool calls unchanged on the next turn', async () => {
    mock.setScript({
      steps: [
        {
          content: [
            { type: 'thinking', thinking: 'I should read the config.', signature: 'c2lnbmF0dXJlLTE=' },
            { type: 'redacted_thinking', data: 'RW5jcnlwdGVkLXJlYXNvbmluZw==' },
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_call', id: 'toolu_01A', name: 'read', input: { path: 'config.toml' } },
            { type: 'tool_call', id: 'toolu_01B', name: 'screenshot', input: {} },
          ],
        },
        { text: 'The port is 8000.' },
      ],
    });
    const first: LlmRequest = {
      model: 'claude-test',
      system: [
        { type: 'text', text: 'You are an agent.' },
        { type: 'cache-boundary' },
        { type: 'text', text: 'Today is Monday.' },
      ],
      tools,
      thinking: { type: 'enabled', budgetTokens: 2048 },
      maxOutputTokens: 1024,
      messages: [{ role: 'user', content: 'What port does config.toml set?' }],
    };
    const answer = await assembleMessage(await collect(provider(), first));
    const history: Message[] = [
      ...first.messages,
      answer.message,
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'toolu_01A', content: 'port = 8000' },
          {
            type: 'tool_result',
            toolUseId: 'toolu_01B',
            content: [
              { type: 'text', text: 'The screen:' },
              { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: PNG } },
            ],
          },
        ],
      },
    ];
    const second = await assembleMessage(await collect(provider(), { ...first, messages: history }));
    expect(second.message.content).toEqual([{ type: 'text', text: 'The port is 8000.' }]);

    expect(body(0)).toMatchObject({
      max_tokens: 3072,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      system: [
        { type: 'text', text: 'You are an agent.', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'Today is Monday.' },
      ],
    });
    expect(body(0).tools?.map((tool) => tool.cache_control)).toEqual([undefined, { type: 'ephemeral' }]);
    expect(body(1).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What port does config.toml set?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'I should read the config.', signature: 'c2lnbmF0dXJlLTE=' },
          { type: 'redacted_thinking', data: 'RW5jcnlwdGVkLXJlYXNvbmluZw==' },
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'toolu_01A', name: 'read', input: { path: 'config.toml' } },
          { type: 'tool_use', id: 'toolu_01B', name: 'screenshot', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01A', content: 'port = 8000' },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_01B',
            content: [
              { type: 'text', text: 'The screen:' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            ],
          },
        ],
      },
    ]);
  });

  it('rewrites tool-call ids from other vendors the same way in tool_use and tool_result', async () => {
    mock.setScript({ steps: [{ text: 'ok' }] });
    const history: Message[] = [
      { role: 'user', content: 'Read it.' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Gemini reasoning', providerMetadata: { gemini: { thoughtSignature: 'xyz' } } },
          { type: 'tool_use', id: 'call.read:1/2', name: 'read', input: { path: 'a' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call.read:1/2', content: 'A' }] },
    ];
    await collect(provider(), { model: 'claude-test', messages: history });
    const [, assistant, results] = body(0).messages;
    const toolUse = (assistant?.content as Array<{ type: string; id?: string }> | undefined)?.[0];
    const toolResult = (results?.content as Array<{ tool_use_id?: string }> | undefined)?.[0];
    // The foreign thinking block is left out; the id is valid for Anthropic and paired.
    expect(assistant?.content).toHaveLength(1);
    expect(toolUse?.type).toBe('tool_use');
    expect(toolUse?.id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(toolResult?.tool_use_id).toBe(toolUse?.id);
  });
});

describe.skipIf(!providerStreamsDir)(`server tool blocks ${providerStreamsDir ? '' : fixturesSkipReason}`, () => {
  it('sends code-execution blocks back in their place after a recorded turn', async () => {
    mock.setScript({
      steps: [
        { replay: fixture('anthropic-messages/anthropic-code-execution-20260120-prompt-cache.1.chunks.txt') },
        { text: 'Done.' },
      ],
    });
    const request: LlmRequest = {
      model: 'claude-test',
      messages: [{ role: 'user', content: 'Sum of squares 1..12?' }],
    };
    const answer = await assembleMessage(await collect(provider(), request));
    await collect(provider(), {
      ...request,
      messages: [...request.messages, answer.message, { role: 'user', content: 'Thanks' }],
    });
    const assistant = body(1).messages[1]?.content as Array<Record<string, unknown>>;
    expect(assistant.map((block) => block.type)).toEqual([
      'server_tool_use',
      'bash_code_execution_tool_result',
      'server_tool_use',
      'bash_code_execution_tool_result',
      'text',
    ]);
    expect(assistant[0]).toEqual({
      type: 'server_tool_use',
      id: 'srvtoolu_011fxGj786xCAh2kPk9GMxQw',
      name: 'bash_code_execution',
      input: { command: 'for n in $(seq 1 12); do echo "$n: $((n*n))"; done' },
    });
    expect(assistant[4]).toEqual({
      type: 'text',
      text: 'The sum of the squares of the numbers 1 through 12 is **650**.',
    });
  });
});

describe('headers for Anthropic-compatible vendors', () => {
  it('sends a Bearer token without x-api-key, the version and the merged betas', async () => {
    mock.setScript({ steps: [{ text: 'ok' }] });
    await collect(
      provider({
        authStyle: 'bearer',
        anthropicVersion: '2023-06-01',
        betas: ['beta-one'],
        headers: { 'x-team': 'core' },
      }),
      { model: 'glm-5', messages: [{ role: 'user', content: 'hi' }] },
      { headers: { 'anthropic-beta': 'beta-two' } },
    );
    const headers = mock.requests[0]?.headers ?? {};
    expect(headers.authorization).toBe('Bearer ***6789');
    expect(headers['x-api-key']).toBeUndefined();
    expect(headers['anthropic-beta']).toBe('beta-one,beta-two');
    expect(headers['x-team']).toBe('core');
  });
});
