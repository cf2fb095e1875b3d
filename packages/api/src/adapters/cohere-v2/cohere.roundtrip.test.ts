import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import type { Message } from '../../spec/message.js';
import type { LlmRequest } from '../../spec/request.js';
import { collect, testApiKey } from './cohere.test.helpers.js';
import { createCohereProvider } from './cohere-provider.js';

// A conversation with thinking, a tool plan and tool calls goes out, comes back, and is sent again:
// the next request must carry the thinking, the plan as `tool_plan`, the calls and their results.

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer();
});

afterAll(async () => {
  await mock.close();
});

it('replays thinking, the tool plan and tool calls, and sends each result as a tool message', async () => {
  mock.setScript({
    steps: [
      {
        content: [
          { type: 'thinking', thinking: 'Two files: read both.' },
          { type: 'text', text: 'I will read a.txt and b.txt.' },
          { type: 'tool_call', id: 'read_a1', name: 'read', input: { path: 'a.txt' } },
          { type: 'tool_call', id: 'read_b2', name: 'read', input: { path: 'b.txt' } },
        ],
        chunking: { textDelta: 4, argumentsDelta: 3 },
      },
      { text: 'Both say hello.' },
    ],
  });
  const provider = createCohereProvider({ baseURL: mock.url, apiKey: testApiKey });
  const request: LlmRequest = {
    model: 'command-a-reasoning-08-2025',
    system: [
      { type: 'text', text: 'Be brief.' },
      { type: 'cache-boundary' },
      { type: 'text', text: 'Today is Monday.' },
    ],
    maxOutputTokens: 2000,
    temperature: 0.3,
    topP: 0.8,
    stopSequences: ['STOP'],
    thinking: { type: 'enabled', budgetTokens: 1024 },
    tools: [
      {
        name: 'read',
        description: 'Read a file',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      },
    ],
    messages: [{ role: 'user', content: 'What do a.txt and b.txt say?' }],
  };
  const first = await assembleMessage(await collect(provider, request));
  // The plan streams as reasoning (marked cohere.toolPlan), so it is not shown as the answer.
  expect(first.message.content.map((block) => block.type)).toEqual(['thinking', 'thinking', 'tool_use', 'tool_use']);

  const history: Message[] = [
    ...request.messages,
    first.message,
    {
      role: 'user',
      content: [
        { type: 'tool_result', toolUseId: 'read_a1', content: 'hello from a' },
        { type: 'tool_result', toolUseId: 'read_b2', content: [{ type: 'text', text: 'hello from b' }] },
        { type: 'text', text: 'Summarise.' },
      ],
    },
  ];
  const second = await assembleMessage(await collect(provider, { ...request, messages: history }));
  expect(second.message.content).toEqual([{ type: 'text', text: 'Both say hello.' }]);

  const sent = mock.requests[1]?.body as Record<string, unknown>;
  expect(mock.requests[1]?.path).toBe('/v2/chat');
  expect(mock.requests[1]?.headers.authorization).toBe('Bearer ***6789');
  expect(sent).toMatchObject({
    model: 'command-a-reasoning-08-2025',
    stream: true,
    max_tokens: 2000,
    temperature: 0.3,
    p: 0.8,
    stop_sequences: ['STOP'],
    thinking: { type: 'enabled', token_budget: 1024 },
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
  expect(sent.messages).toEqual([
    { role: 'system', content: 'Be brief.\n\nToday is Monday.' },
    { role: 'user', content: 'What do a.txt and b.txt say?' },
    {
      role: 'assistant',
      content: [{ type: 'thinking', thinking: 'Two files: read both.' }],
      tool_plan: 'I will read a.txt and b.txt.',
      tool_calls: [
        { id: 'read_a1', type: 'function', function: { name: 'read', arguments: '{"path":"a.txt"}' } },
        { id: 'read_b2', type: 'function', function: { name: 'read', arguments: '{"path":"b.txt"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'read_a1', content: [{ type: 'text', text: 'hello from a' }] },
    { role: 'tool', tool_call_id: 'read_b2', content: [{ type: 'text', text: 'hello from b' }] },
    { role: 'user', content: [{ type: 'text', text: 'Summarise.' }] },
  ]);
});
