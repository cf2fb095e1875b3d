import { readFileSync } from 'node:fs';
import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../spec/message.js';
import type { LlmRequest } from '../../spec/request.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../../test/fixtures.js';
import { assemble, collectEvents } from './openai-responses.test-helpers.js';
import { convertToOpenAIResponsesInput } from './openai-responses-messages.js';
import { createOpenAIResponsesProvider, type OpenAIResponsesSettings } from './openai-responses-provider.js';

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

function provider(settings: OpenAIResponsesSettings = {}) {
  return createOpenAIResponsesProvider({
    baseURL: `${mock.url}/v1`,
    apiKey: 'sk-test-roundtrip-0001',
    retry: { maxRetries: 0 },
    reasoningSummary: 'auto',
    ...settings,
  });
}

const tools = [
  { name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', properties: { path: {} } } },
];
const firstRequest: LlmRequest = {
  model: 'gpt-5',
  system: [
    { type: 'text', text: 'You are terse.' },
    { type: 'cache-boundary' },
    { type: 'text', text: 'Today is Monday.' },
  ],
  messages: [{ role: 'user', content: 'Read a.txt and b.png' }],
  tools,
  thinking: { type: 'effort', effort: 'high' },
  maxOutputTokens: 500,
};

async function firstTurn(settings: OpenAIResponsesSettings = {}) {
  mock.setScript({
    steps: [
      {
        content: [
          { type: 'thinking', thinking: 'Read both files.', signature: 'encrypted-reasoning-1' },
          { type: 'text', text: 'Reading them.' },
          { type: 'tool_call', id: 'call_a', name: 'read_file', input: { path: 'a.txt' } },
          { type: 'tool_call', id: 'call_b', name: 'read_file', input: { path: 'b.png' } },
        ],
      },
      { text: 'Done.' },
    ],
  });
  const response = assemble(await collectEvents(provider(settings), firstRequest));
  const history: Message[] = [
    ...firstRequest.messages,
    response.message,
    {
      role: 'user',
      content: [
        { type: 'tool_result', toolUseId: 'call_a', content: 'alpha' },
        {
          type: 'tool_result',
          toolUseId: 'call_b',
          content: [
            { type: 'text', text: 'the image:' },
            { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBORw0K' } },
          ],
        },
      ],
    },
  ];
  await collectEvents(provider(settings), { ...firstRequest, messages: history });
  const [first, second] = mock.requests.map((recorded) => recorded.body as Record<string, unknown>);
  return { response, first, second };
}

describe('a conversation with reasoning and tool calls, over two turns', () => {
  it('sends the first request with instructions, tools, reasoning and the encrypted-content include', async () => {
    const { first } = await firstTurn();
    expect(first).toEqual({
      model: 'gpt-5',
      instructions: 'You are terse.\n\nToday is Monday.',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Read a.txt and b.png' }] }],
      tools: [
        {
          type: 'function',
          name: 'read_file',
          description: 'Read a file',
          parameters: { type: 'object', properties: { path: {} } },
          strict: false,
        },
      ],
      max_output_tokens: 500,
      reasoning: { effort: 'high', summary: 'auto' },
      store: false,
      include: ['reasoning.encrypted_content'],
      stream: true,
    });
  });

  it('replays the reasoning item (id, summary, encrypted content) before the output that followed it', async () => {
    const { response, second } = await firstTurn();
    const reasoningId = response.message.content[0]?.providerMetadata?.['openai-responses']?.itemId;
    expect(typeof reasoningId).toBe('string');
    expect(second?.input).toEqual([
      { role: 'user', content: [{ type: 'input_text', text: 'Read a.txt and b.png' }] },
      {
        type: 'reasoning',
        id: reasoningId,
        summary: [{ type: 'summary_text', text: 'Read both files.' }],
        encrypted_content: 'encrypted-reasoning-1',
      },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Reading them.', annotations: [] }],
      },
      { type: 'function_call', call_id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
      { type: 'function_call', call_id: 'call_b', name: 'read_file', arguments: '{"path":"b.png"}' },
      { type: 'function_call_output', call_id: 'call_a', output: 'alpha' },
      {
        type: 'function_call_output',
        call_id: 'call_b',
        output: [
          { type: 'input_text', text: 'the image:' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0K', detail: 'auto' },
        ],
      },
    ]);
  });

  it('with store: true, sends the item ids back and asks for no encrypted content', async () => {
    const { response, first, second } = await firstTurn({ store: true });
    expect(first).toMatchObject({ store: true });
    expect(first).not.toHaveProperty('include');
    const itemIds = response.message.content.map((block) => block.providerMetadata?.['openai-responses']?.itemId);
    const input = second?.input as Array<Record<string, unknown>>;
    expect(input.slice(1, 5).map((item) => item.id)).toEqual(itemIds);
    expect(input[2]).toMatchObject({ type: 'message', status: 'completed' });
  });
});

describe.skipIf(!providerStreamsDir)(`recorded conversation (${fixturesSkipReason})`, () => {
  it('converts the assembled recording back into exactly the items the API sent', async () => {
    const path = fixture('openai-responses/openai-reasoning-encrypted-content.1.chunks.txt');
    mock.setScript({ steps: [{ replay: path }] });
    const response = assemble(
      await collectEvents(provider(), { model: 'gpt-5.1-codex-max', messages: [{ role: 'user', content: 'x' }] }),
    );
    const lines = readFileSync(path, 'utf8').split('\n');
    const item = (line: number) => (JSON.parse(lines[line - 1] ?? '') as { item: Record<string, unknown> }).item;
    const { status: _status, id: _id, ...call } = item(55);
    expect(convertToOpenAIResponsesInput([response.message], { store: false })).toEqual([{ ...item(39) }, call]);
  });
});

describe('history from elsewhere', () => {
  it('drops foreign reasoning, and shortens long tool ids the same way for the call and its result', async () => {
    const longId = `toolu_${'x'.repeat(80)}`;
    mock.setScript({ steps: [{ text: 'ok' }] });
    await collectEvents(provider(), {
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: '' },
            { type: 'text', text: 'hi' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'anthropic thoughts', signature: 'sig' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'tool_use', id: longId, name: 'read_file', input: { path: 'x' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: longId, content: 'x', isError: true }] },
      ],
    });
    const body = mock.requests[0]?.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('include');
    expect(body).not.toHaveProperty('reasoning');
    const input = body.input as Array<Record<string, unknown>>;
    expect(input.map((item) => item.type ?? item.role)).toEqual([
      'developer',
      'user',
      'function_call',
      'function_call_output',
    ]);
    expect(input[1]).toEqual({ role: 'user', content: [{ type: 'input_text', text: 'hi' }] });
    const callId = input[2]?.call_id as string;
    expect(callId.length).toBeLessThanOrEqual(64);
    expect(callId).not.toBe(longId);
    expect(input[3]?.call_id).toBe(callId);
  });
});
