import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import type { Message } from '../../spec/message.js';
import type { LlmRequest } from '../../spec/request.js';
import { createOllamaProvider } from './ollama-provider.js';

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

const tools = [
  {
    name: 'read',
    description: 'Read a file',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { path: { type: 'string' } },
    },
  },
];

describe('a conversation with thinking and tool calls, sent back on the next turn', () => {
  it('replays thinking, tool calls with object arguments, and results named after their function', async () => {
    mock.setScript({
      steps: [
        {
          content: [
            { type: 'thinking', thinking: 'Two files to read.' },
            { type: 'text', text: 'Reading.' },
            { type: 'tool_call', id: 'call_x', name: 'read', input: { path: 'a.toml' } },
            { type: 'tool_call', name: 'read', input: { path: 'b.toml' } },
          ],
        },
        { text: 'Both say port 8000.' },
      ],
    });
    const first: LlmRequest = {
      model: 'gpt-oss:20b',
      system: [
        { type: 'text', text: 'You are careful.' },
        { type: 'cache-boundary' },
        { type: 'text', text: 'Today is Monday.' },
      ],
      messages: [{ role: 'user', content: 'Ports?' }],
      tools,
      thinking: { type: 'effort', effort: 'high' },
      maxOutputTokens: 300,
      temperature: 0,
      topP: 0.5,
      stopSequences: ['</done>'],
      providerOptions: { ollama: { options: { num_ctx: 32_768 } } },
    };
    const provider = createOllamaProvider({ baseURL: mock.url, env: {}, keepAlive: '10m' });
    const turn = await assembleMessage(provider.streamMessage(first));
    const calls = turn.message.content.flatMap((block) => (block.type === 'tool_use' ? [block] : []));
    expect(calls).toHaveLength(2);
    const [withId, withoutId] = calls;
    if (withId === undefined || withoutId === undefined) throw new Error('expected two calls');

    const history: Message[] = [
      ...first.messages,
      turn.message,
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: withId.id, content: 'port = 8000' },
          { type: 'tool_result', toolUseId: withoutId.id, content: [{ type: 'text', text: 'denied' }], isError: true },
          { type: 'text', text: 'Summarise.' },
        ],
      },
    ];
    const second = await assembleMessage(provider.streamMessage({ ...first, messages: history }));
    expect(second.message.content).toEqual([{ type: 'text', text: 'Both say port 8000.' }]);

    const firstBody = mock.requests[0]?.body as Record<string, unknown>;
    expect(firstBody).toMatchObject({
      model: 'gpt-oss:20b',
      stream: true,
      think: 'high',
      keep_alive: '10m',
      options: { num_predict: 300, temperature: 0, top_p: 0.5, stop: ['</done>'], num_ctx: 32_768 },
      tools: [
        {
          type: 'function',
          function: {
            name: 'read',
            description: 'Read a file',
            parameters: { type: 'object', properties: { path: { type: 'string' } } },
          },
        },
      ],
    });
    const mockGeneratedId = String(withoutId.providerMetadata?.ollama?.toolCallId);
    expect(mockGeneratedId).toMatch(/^call_mock\d+$/);
    const secondBody = mock.requests[1]?.body as { messages: unknown[] };
    expect(secondBody.messages).toEqual([
      { role: 'system', content: 'You are careful.\n\nToday is Monday.' },
      { role: 'user', content: 'Ports?' },
      {
        role: 'assistant',
        content: 'Reading.',
        thinking: 'Two files to read.',
        tool_calls: [
          { id: 'call_x', function: { name: 'read', arguments: { path: 'a.toml' } } },
          { id: mockGeneratedId, function: { name: 'read', arguments: { path: 'b.toml' } } },
        ],
      },
      { role: 'tool', content: 'port = 8000', tool_name: 'read', tool_call_id: 'call_x' },
      { role: 'tool', content: 'Error: denied', tool_name: 'read', tool_call_id: mockGeneratedId },
      { role: 'user', content: 'Summarise.' },
    ]);
  });

  it('sends no ids it generated itself', async () => {
    mock.setScript({
      steps: [
        { content: [{ type: 'tool_call', name: 'read', input: { path: 'a' } }], fault: { kind: 'missing_tool_ids' } },
        { text: 'ok' },
      ],
    });
    const provider = createOllamaProvider({ baseURL: mock.url, env: {} });
    const request: LlmRequest = { model: 'llama3.2', messages: [{ role: 'user', content: 'Read a' }], tools };
    const turn = await assembleMessage(provider.streamMessage(request));
    const call = turn.message.content[0];
    if (call?.type !== 'tool_use') throw new Error('expected a tool call');
    await assembleMessage(
      provider.streamMessage({
        ...request,
        messages: [
          ...request.messages,
          turn.message,
          { role: 'user', content: [{ type: 'tool_result', toolUseId: call.id, content: 'A' }] },
        ],
      }),
    );
    const messages = (mock.requests[1]?.body as { messages: unknown[] } | undefined)?.messages ?? [];
    expect(messages.slice(1)).toEqual([
      { role: 'assistant', content: '', tool_calls: [{ function: { name: 'read', arguments: { path: 'a' } } }] },
      { role: 'tool', content: 'A', tool_name: 'read' },
    ]);
  });
});
