import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockServer, type MockTurn, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../../spec/message.js';
import type { LlmRequest } from '../../spec/request.js';
import { assemble, collectEvents } from './openai-chat.test.helpers.js';
import { convertMessages } from './openai-chat-messages.js';
import { createOpenAIChatProvider } from './openai-chat-provider.js';
import {
  DEFAULT_OPENAI_CHAT_COMPAT,
  MISTRAL_TOOL_CALL_ID_RULES,
  type OpenAIChatCompat,
} from './openai-chat-settings.js';

let mock: MockServer;
let scratch: string;

beforeAll(async () => {
  mock = await startMockServer();
  scratch = mkdtempSync(join(tmpdir(), 'openai-chat-roundtrip-'));
});

afterAll(async () => {
  await mock.close();
  rmSync(scratch, { recursive: true, force: true });
});

beforeEach(() => {
  mock.clearRequests();
});

const tools = [
  {
    name: 'read',
    description: 'Read a file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  },
  { name: 'screenshot', description: 'Capture the screen', inputSchema: { type: 'object', properties: {} } },
];

const toolTurn: MockTurn = {
  content: [
    { type: 'thinking', thinking: 'I should read the config and look at the screen.' },
    { type: 'text', text: 'Let me check both.' },
    { type: 'tool_call', id: 'call_00_ReadConfigFile', name: 'read', input: { path: 'config.toml' } },
    { type: 'tool_call', id: 'call_01_TakeScreenshot', name: 'screenshot', input: {} },
  ],
  usage: { input: 300, output: 60, reasoning: 15 },
  chunking: { textDelta: 7, argumentsDelta: 6 },
};

const deepseekCompat: Partial<OpenAIChatCompat> = {
  maxTokensField: 'max_tokens',
  thinking: 'thinking-type',
  echoReasoningContent: true,
};

const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Runs turn 1 (thinking + two tool calls), then turn 2 with both results; returns turn 2's request body. */
async function twoTurns(
  compat: Partial<OpenAIChatCompat>,
): Promise<{ assistant: AssistantMessage; body: Record<string, unknown> }> {
  mock.setScript({ steps: [toolTurn, { text: 'The port is 8000 and the screen is blank.' }] });
  const provider = createOpenAIChatProvider({ baseURL: `${mock.url}/v1`, apiKey: 'k-1', compat });
  const first: LlmRequest = {
    model: 'deepseek-chat',
    system: [
      { type: 'text', text: 'You are a careful agent.' },
      { type: 'cache-boundary' },
      { type: 'text', text: 'Today is Monday.' },
    ],
    messages: [{ role: 'user', content: 'What port, and what is on screen?' }],
    tools,
    thinking: { type: 'enabled', budgetTokens: 2048 },
  };
  const assistant = assemble(await collectEvents(provider.streamMessage(first))).message;
  const history: Message[] = [
    ...first.messages,
    assistant,
    {
      role: 'user',
      content: [
        { type: 'tool_result', toolUseId: 'call_00_ReadConfigFile', content: 'port = 8000' },
        {
          type: 'tool_result',
          toolUseId: 'call_01_TakeScreenshot',
          content: [
            { type: 'text', text: 'Captured.' },
            { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: png } },
          ],
        },
        { type: 'text', text: 'Answer briefly.' },
      ],
    },
  ];
  const second = assemble(await collectEvents(provider.streamMessage({ ...first, messages: history })));
  expect(second.message.content).toEqual([{ type: 'text', text: 'The port is 8000 and the screen is blank.' }]);
  return { assistant, body: mock.requests[1]?.body as Record<string, unknown> };
}

describe('a conversation with thinking and tool calls, replayed on the next turn', () => {
  it('sends reasoning_content back on the tool-call turn, tool results one message each, images after them', async () => {
    const { assistant, body } = await twoTurns(deepseekCompat);
    expect(assistant.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use', 'tool_use']);
    expect(body.thinking).toEqual({ type: 'enabled' });
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are a careful agent.\n\nToday is Monday.' },
      { role: 'user', content: 'What port, and what is on screen?' },
      {
        role: 'assistant',
        content: 'Let me check both.',
        reasoning_content: 'I should read the config and look at the screen.',
        tool_calls: [
          {
            id: 'call_00_ReadConfigFile',
            type: 'function',
            function: { name: 'read', arguments: '{"path":"config.toml"}' },
          },
          { id: 'call_01_TakeScreenshot', type: 'function', function: { name: 'screenshot', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_00_ReadConfigFile', content: 'port = 8000' },
      {
        role: 'tool',
        tool_call_id: 'call_01_TakeScreenshot',
        content: 'Captured.\n[Image 1 of this result is attached in the next user message.]',
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Images from the result of tool call call_01_TakeScreenshot:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
          { type: 'text', text: 'Answer briefly.' },
        ],
      },
    ]);
  });

  it('does not send reasoning_content to servers that do not want it (OpenAI)', async () => {
    const { body } = await twoTurns({});
    const assistant = (body.messages as Array<Record<string, unknown>>)[2];
    expect(assistant).not.toHaveProperty('reasoning_content');
    expect(body.reasoning_effort).toBe('low');
    expect(body).not.toHaveProperty('thinking');
  });

  it('rewrites every tool-call id to Mistral rules, calls and results alike', async () => {
    const { body } = await twoTurns({ toolCallIdRules: MISTRAL_TOOL_CALL_ID_RULES, maxTokensField: 'max_tokens' });
    const messages = body.messages as Array<{
      role: string;
      tool_calls?: Array<{ id: string }>;
      tool_call_id?: string;
    }>;
    const callIds = messages[2]?.tool_calls?.map((call) => call.id) ?? [];
    const resultIds = messages.filter((message) => message.role === 'tool').map((message) => message.tool_call_id);
    expect(callIds).toHaveLength(2);
    for (const id of callIds) expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(resultIds).toEqual(callIds);
    expect(new Set(callIds).size).toBe(2);
  });

  it('sends OpenRouter reasoning_details back unchanged when the compat asks for it', async () => {
    const details = [
      { type: 'reasoning.text', text: 'Think.', signature: 'sig-abc', format: 'anthropic-claude-v1', index: 0 },
    ];
    const assistant: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Think.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a' } },
      ],
      providerMetadata: { 'openai-chat': { reasoning_details: details } },
    };
    const compat = { ...DEFAULT_OPENAI_CHAT_COMPAT, echoReasoningDetails: true };
    const [converted] = convertMessages(undefined, [assistant], compat);
    expect(converted).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } }],
      reasoning_details: details,
    });
  });
});

describe('to the wire and back', () => {
  it('an assistant message converted to a chat.completion message comes back identical', async () => {
    mock.setScript({ steps: [toolTurn] });
    const provider = createOpenAIChatProvider({ baseURL: `${mock.url}/v1`, apiKey: 'k-1', compat: deepseekCompat });
    const original = assemble(
      await collectEvents(provider.streamMessage({ model: 'm', messages: [{ role: 'user', content: 'go' }], tools })),
    );
    const compat = { ...DEFAULT_OPENAI_CHAT_COMPAT, ...deepseekCompat };
    const [wire] = convertMessages(undefined, [original.message], compat);
    const path = join(scratch, 'roundtrip.json');
    writeFileSync(
      path,
      JSON.stringify({
        id: 'chatcmpl-roundtrip',
        object: 'chat.completion',
        model: 'm',
        choices: [{ index: 0, message: wire, finish_reason: 'tool_calls' }],
        usage: { prompt_tokens: 300, completion_tokens: 60, completion_tokens_details: { reasoning_tokens: 15 } },
      }),
    );
    mock.setScript({ steps: [{ replay: path, protocol: 'openai-chat' }] });
    const back = await provider.createMessage({ model: 'm', messages: [{ role: 'user', content: 'go' }], tools });
    // Reasoning and text become one block each; tool calls keep ids, names and inputs.
    expect(back.message).toEqual(original.message);
    expect(back.finishReason).toEqual(original.finishReason);
    expect(back.usage).toEqual(original.usage);
  });
});
