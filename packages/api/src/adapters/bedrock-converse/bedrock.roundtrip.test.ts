import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import type { Message } from '../../spec/message.js';
import type { LlmRequest } from '../../spec/request.js';
import { collect, testCredentials } from './bedrock.test.helpers.js';
import { createBedrockConverseProvider } from './bedrock-provider.js';

// A conversation with reasoning (signed and redacted) and tool calls goes out, comes back, and is
// sent again: the next request must carry everything Claude on Bedrock needs to continue it.

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer();
});

afterAll(async () => {
  await mock.close();
});

const SIGNATURE = 'EqQBCkgIARABGAIiQL1+signature/with+base64==';

it('replays reasoning, signatures, redacted content and tool calls exactly on the next turn', async () => {
  mock.setScript({
    steps: [
      {
        content: [
          { type: 'thinking', thinking: 'I should read both files.', signature: SIGNATURE },
          { type: 'redacted_thinking', data: 'cmVkYWN0ZWQ=' },
          { type: 'text', text: 'Reading them now.' },
          { type: 'tool_call', id: 'tooluse_one', name: 'read', input: { path: 'a.txt' } },
          { type: 'tool_call', id: 'tooluse_two', name: 'read', input: { path: 'b.txt' } },
        ],
        chunking: { textDelta: 3, argumentsDelta: 4 },
      },
      { text: 'Both files say hello.' },
    ],
  });
  const provider = createBedrockConverseProvider({
    baseURL: mock.url,
    region: 'us-east-1',
    credentials: testCredentials,
  });
  const request: LlmRequest = {
    model: 'us.anthropic.claude-sonnet-4-20250514-v1:0',
    system: [
      { type: 'text', text: 'You are careful.' },
      { type: 'cache-boundary' },
      { type: 'text', text: 'Today is Monday.' },
    ],
    maxOutputTokens: 4096,
    thinking: { type: 'enabled', budgetTokens: 2048 },
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
  expect(first.message.content.map((block) => block.type)).toEqual([
    'thinking',
    'redacted_thinking',
    'text',
    'tool_use',
    'tool_use',
  ]);

  const history: Message[] = [
    ...request.messages,
    first.message,
    {
      role: 'user',
      content: [
        { type: 'tool_result', toolUseId: 'tooluse_one', content: 'hello from a' },
        {
          type: 'tool_result',
          toolUseId: 'tooluse_two',
          content: [{ type: 'text', text: 'hello from b' }],
          isError: false,
        },
      ],
    },
  ];
  const second = await assembleMessage(await collect(provider, { ...request, messages: history }));
  expect(second.message.content).toEqual([{ type: 'text', text: 'Both files say hello.' }]);

  const sent = mock.requests[1]?.body as Record<string, unknown>;
  expect(mock.requests[1]?.path).toBe('/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream');
  expect(sent.system).toEqual([
    { text: 'You are careful.' },
    { cachePoint: { type: 'default' } },
    { text: 'Today is Monday.' },
  ]);
  expect(sent.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 2048 } });
  expect(sent.inferenceConfig).toEqual({ maxTokens: 4096 });
  expect(sent.toolConfig).toEqual({
    tools: [
      {
        toolSpec: {
          name: 'read',
          description: 'Read a file',
          inputSchema: { json: { type: 'object', properties: { path: { type: 'string' } } } },
        },
      },
      { cachePoint: { type: 'default' } },
    ],
  });
  expect(sent.messages).toEqual([
    { role: 'user', content: [{ text: 'What do a.txt and b.txt say?' }] },
    {
      role: 'assistant',
      content: [
        { reasoningContent: { reasoningText: { text: 'I should read both files.', signature: SIGNATURE } } },
        { reasoningContent: { redactedContent: 'cmVkYWN0ZWQ=' } },
        { text: 'Reading them now.' },
        { toolUse: { toolUseId: 'tooluse_one', name: 'read', input: { path: 'a.txt' } } },
        { toolUse: { toolUseId: 'tooluse_two', name: 'read', input: { path: 'b.txt' } } },
      ],
    },
    {
      role: 'user',
      content: [
        { toolResult: { toolUseId: 'tooluse_one', content: [{ text: 'hello from a' }], status: 'success' } },
        { toolResult: { toolUseId: 'tooluse_two', content: [{ text: 'hello from b' }], status: 'success' } },
      ],
    },
  ]);
});

it('rewrites tool-call ids Bedrock would reject, identically in the call and its result', async () => {
  mock.setScript({ steps: [{ text: 'ok' }] });
  mock.clearRequests();
  const provider = createBedrockConverseProvider({
    baseURL: mock.url,
    region: 'us-east-1',
    credentials: testCredentials,
  });
  const foreignId = 'functions.read:0'; // an OpenAI-compatible server's id
  await collect(provider, {
    model: 'anthropic.claude-3-5-haiku-20241022-v1:0',
    messages: [
      { role: 'user', content: 'read it' },
      { role: 'assistant', content: [{ type: 'tool_use', id: foreignId, name: 'read', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'here:' },
          { type: 'tool_result', toolUseId: foreignId, content: 'boom', isError: true },
        ],
      },
    ],
  });
  const sent = mock.requests[0]?.body as {
    messages: Array<{ content: Array<Record<string, { toolUseId?: string }>> }>;
    toolConfig: unknown;
  };
  const messages = sent.messages;
  const useId = messages[1]?.content[0]?.toolUse?.toolUseId;
  const resultId = messages[2]?.content[0]?.toolResult?.toolUseId;
  expect(useId).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  expect(resultId).toBe(useId);
  // Tool results come first in the user turn, an error result is marked, and the request has a
  // placeholder toolConfig because its history holds tool blocks but it sent no tools.
  expect(messages[2]?.content).toEqual([
    { toolResult: { toolUseId: useId, content: [{ text: 'boom' }], status: 'error' } },
    { text: 'here:' },
  ]);
  expect(sent.toolConfig).toMatchObject({
    tools: [{ toolSpec: { name: 'read' } }],
  });
});
