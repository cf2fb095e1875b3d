import { type MockServer, type MockTurn, type RecordedRequest, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIChatProvider } from '../adapters/openai-chat/openai-chat-provider.js';
import { MISTRAL_TOOL_CALL_ID_RULES } from '../adapters/openai-chat/openai-chat-settings.js';
import { MessageAssembler } from '../shared/message-assembler.js';
import type { Message, ToolUseBlock } from '../spec/message.js';
import type { LlmProvider } from '../spec/provider.js';
import type { LlmRequest } from '../spec/request.js';
import type { AssistantResponse } from '../spec/response.js';
import type { StreamEvent } from '../spec/stream-event.js';
import { ADAPTERS, type AdapterUnderTest } from '../test/conformance-adapters.js';
import { type RequestView, viewRequest } from './cross-provider.test.helpers.js';
import { IMAGE_PLACEHOLDER, type TransferHistoryOptions, transferHistory } from './transfer-history.js';

// A conversation started on adapter A moves to adapter B, for every ordered pair of the seven
// protocol adapters: turn 1 on A (thinking with a signature, text, a tool call with an id in A's
// style), the tool result appended, the history moved with `transferHistory`, and B's request read
// back from the mock. Same provider: everything replays natively. Another provider: no signature of
// A anywhere, the unfinished turn's thinking as plain text, tool ids valid for B and paired, images
// replaced by a placeholder (the target is treated as a model without vision).

const THINKING = 'The user wants the config; read it first.';
const TEXT = 'Let me read the file.';
const PNG = { type: 'base64' as const, data: 'iVBORw0KGgoAAAANSUhEUg==', mediaType: 'image/png' };

/** How each vendor names its tool calls (Gemini 2.x sends none: the adapter makes them up). */
const ID_STYLE: Record<string, string | undefined> = {
  'anthropic-messages': 'toolu_01A09q90qw90lq917835lq9',
  'openai-chat': 'functions.read_file:0', // Kimi K2's ids, as served over Chat Completions
  'openai-responses': 'call_pS9bxTNVL0Ym4hdGVa7Kc3pQ',
  gemini: undefined,
  'bedrock-converse': 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q',
  'cohere-v2': 'read_file_1byjy32y4hvq',
  ollama: 'call_k3w8v1q2',
};

/** Adapters that replay their own thinking by default (Chat Completions echoes it only when a row asks). */
const REPLAYS_OWN_THINKING = new Set([
  'anthropic-messages',
  'openai-responses',
  'gemini',
  'bedrock-converse',
  'cohere-v2',
  'ollama',
]);
/** Adapters whose protocol carries the thinking signature (as signature, thoughtSignature or encrypted content). */
const SENDS_SIGNATURE = new Set(['anthropic-messages', 'openai-responses', 'gemini', 'bedrock-converse']);

const signatureOf = (adapter: AdapterUnderTest) => `sig-${adapter.name}-Zq81`;

function toolTurn(adapter: AdapterUnderTest): MockTurn {
  const id = ID_STYLE[adapter.name];
  return {
    content: [
      { type: 'thinking', thinking: THINKING, signature: signatureOf(adapter) },
      { type: 'text', text: TEXT },
      { type: 'tool_call', ...(id === undefined ? {} : { id }), name: 'read_file', input: { path: 'config.toml' } },
    ],
    ...(id === undefined ? { fault: { kind: 'missing_tool_ids' as const } } : {}),
    usage: { input: 50, output: 30, reasoning: 10 },
  };
}

const ANSWER: MockTurn = { text: 'Done.', usage: { input: 80, output: 2 } };

function request(messages: Message[]): LlmRequest {
  return {
    model: 'conformance-model',
    maxOutputTokens: 4096,
    thinking: { type: 'enabled', budgetTokens: 2048 },
    messages,
    tools: [
      {
        name: 'read_file',
        description: 'Read a file',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      },
    ],
  };
}

async function stream(
  provider: LlmProvider,
  body: LlmRequest,
): Promise<{ events: StreamEvent[]; response: AssistantResponse }> {
  const events: StreamEvent[] = [];
  const assembler = new MessageAssembler();
  for await (const event of provider.streamMessage(body)) {
    events.push(event);
    assembler.push(event);
  }
  return { events, response: assembler.toResponse() };
}

let mock: MockServer;
const options = { retry: { maxRetries: 0 }, stall: false as const };

beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  mock.clearRequests();
});

/** Runs turn 1 on `from`, moves the history, sends it to `to`; returns B's request view and more. */
async function moveConversation(
  from: AdapterUnderTest,
  to: { adapter: AdapterUnderTest; provider: LlmProvider },
  transfer: Partial<TransferHistoryOptions> = {},
) {
  mock.setScript({ steps: [toolTurn(from), ANSWER] });
  const source = from.create(mock.url, options);
  const prompt: Message = {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in config.toml?' },
      { type: 'image', source: PNG },
    ],
  };
  const first = await stream(source, request([prompt]));
  expect(first.events.at(-1)?.type, JSON.stringify(first.events.at(-1))).toBe('message-end');
  const call = first.response.message.content.find((block): block is ToolUseBlock => block.type === 'tool_use');
  expect(call?.name).toBe('read_file');
  const styleId = ID_STYLE[from.name];
  if (styleId !== undefined) expect(call?.id).toBe(styleId);
  const history: Message[] = [
    prompt,
    first.response.message,
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          toolUseId: call?.id ?? '',
          content: [
            { type: 'text', text: 'port = 8000' },
            { type: 'image', source: PNG },
          ],
        },
      ],
    },
  ];
  const same = from.name === to.adapter.name;
  const moved = transferHistory(history, {
    from: { adapter: from.name, providerId: source.id },
    to: { adapter: to.adapter.name, providerId: to.provider.id },
    vision: same,
    ...transfer,
  });
  const second = await stream(to.provider, request(moved.messages));
  const recorded = mock.requests[1] as RecordedRequest;
  expect(recorded.protocol).toBe(to.adapter.protocol);
  return { second, recorded, view: viewRequest(to.adapter.protocol, recorded.body as Record<string, unknown>), same };
}

function expectPairedToolCall(view: RequestView, target: AdapterUnderTest): void {
  expect(view.calls).toHaveLength(1);
  expect(view.results).toHaveLength(1);
  const [call] = view.calls;
  const [result] = view.results;
  expect(call?.name).toBe('read_file');
  if (target.protocol === 'gemini' || target.protocol === 'ollama') {
    // These pair a result with its call by function name; an id goes along only when the vendor gave one.
    expect(result?.name).toBe('read_file');
    expect(result?.id).toBe(call?.id);
    return;
  }
  expect(result?.id).toBe(call?.id);
  const id = call?.id ?? '';
  if (target.protocol === 'anthropic') expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
  if (target.protocol === 'bedrock') expect(id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  if (target.protocol === 'openai-responses') expect(id.length).toBeLessThanOrEqual(64);
  if (target.protocol === 'openai-chat') expect(id.length).toBeLessThanOrEqual(40);
  expect(id.length).toBeGreaterThan(0);
}

const pairs = ADAPTERS.flatMap((from) => ADAPTERS.map((to) => [from.name, to.name, from, to] as const));

describe('cross-provider history', () => {
  it.each(pairs)('%s -> %s', async (_fromName, _toName, from, to) => {
    const target = { adapter: to, provider: to.create(mock.url, options) };
    const { second, recorded, view, same } = await moveConversation(from, target);

    expectPairedToolCall(view, to);
    const body = recorded.rawBody;
    if (same) {
      // The provider that made the thinking verifies it: replayed natively, with its signature.
      if (REPLAYS_OWN_THINKING.has(to.name)) expect(view.reasoning.join(' ')).toContain(THINKING);
      if (SENDS_SIGNATURE.has(to.name)) expect(body).toContain(signatureOf(from));
      expect(view.assistantTexts.join(' ')).not.toContain(THINKING);
      expect(view.images).toBeGreaterThanOrEqual(1);
    } else {
      // Unverifiable: the unfinished turn's thinking goes as plain text, no reasoning, no signature.
      expect(view.reasoning).toEqual([]);
      expect(view.assistantTexts.join(' ')).toContain(THINKING);
      expect(body).not.toContain(signatureOf(from));
      expect(view.images).toBe(0);
      expect(view.userTexts.join(' ')).toContain(IMAGE_PLACEHOLDER);
    }
    expect(view.assistantTexts.join(' ')).toContain(TEXT);
    expect(second.events.at(-1)?.type, JSON.stringify(second.events.at(-1))).toBe('message-end');
    expect(second.response.message.content).toMatchObject([{ type: 'text', text: 'Done.' }]);
  });

  it.each(ADAPTERS.map((from) => [from.name, from] as const))(
    '%s -> a Chat Completions server with Mistral-style ids (exactly nine alphanumerics)',
    async (_name, from) => {
      const mistral = ADAPTERS.find((adapter) => adapter.name === 'openai-chat') as AdapterUnderTest;
      const provider = createOpenAIChatProvider({
        providerId: 'mistral',
        baseURL: `${mock.url}/v1`,
        apiKey: 'cross-provider-test-key-0123',
        compat: { toolCallIdRules: MISTRAL_TOOL_CALL_ID_RULES, supportsStreamOptions: false },
        ...options,
      });
      const { view } = await moveConversation(
        from,
        { adapter: mistral, provider },
        { toolCallIdRules: MISTRAL_TOOL_CALL_ID_RULES },
      );
      expect(view.calls[0]?.id).toMatch(/^[a-zA-Z0-9]{9}$/);
      expect(view.results[0]?.id).toBe(view.calls[0]?.id);
      expect(view.reasoning).toEqual([]);
    },
  );
});
