import { type MockServer, type MockTurn, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import type { LlmRequest } from '../../spec/request.js';
import { collectEvents, expectWellFormed } from '../../test/stream-contract.js';
import { createOllamaProvider, type OllamaSettings } from './ollama-provider.js';

// No recorded Ollama streams exist in shared/fixtures, so these scripted turns, rendered by the
// testkit's Ollama renderer (NDJSON lines, thinking in message.thinking, whole tool calls with object
// arguments), stand in for them.

const request: LlmRequest = { model: 'qwen3:8b', messages: [{ role: 'user', content: 'What is in config.toml?' }] };
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

function provider(settings: OllamaSettings = {}) {
  return createOllamaProvider({ baseURL: mock.url, env: {}, retry: { maxRetries: 0 }, ...settings });
}

async function streamTurn(turn: MockTurn) {
  mock.setScript({ steps: [turn] });
  const events = await collectEvents(provider().streamMessage(request));
  expectWellFormed(events);
  return { events, response: await assembleMessage(events) };
}

describe('scripted Ollama streams', () => {
  it('plain text in several lines, usage from the done line', async () => {
    const { events, response } = await streamTurn({
      text: 'The port is 8000. 😀',
      usage: { input: 40, output: 7 },
      chunking: { textDelta: 3 },
    });
    expect(events[0]).toEqual({ type: 'message-start', model: 'qwen3:8b' });
    expect(events.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(3);
    expect(response.message.content).toEqual([{ type: 'text', text: 'The port is 8000. 😀' }]);
    expect(response.usage).toEqual({
      input: { total: 40, noCache: 40, cacheRead: 0, cacheWrite: 0 },
      output: { total: 7, text: 7, reasoning: 0 },
    });
    expect(response.finishReason).toEqual({ unified: 'stop', raw: 'stop' });
  });

  it('thinking then text, as two blocks', async () => {
    const { response } = await streamTurn({
      content: [
        { type: 'thinking', thinking: 'The user wants the port.' },
        { type: 'text', text: 'It is 8000.' },
      ],
      chunking: { textDelta: 5 },
    });
    expect(response.message.content).toEqual([
      { type: 'thinking', thinking: 'The user wants the port.' },
      { type: 'text', text: 'It is 8000.' },
    ]);
  });

  it('several tool calls, each whole, with ids kept and arguments parsed', async () => {
    const { events, response } = await streamTurn({
      content: [
        { type: 'thinking', thinking: 'Read both files.' },
        { type: 'tool_call', id: 'call_a', name: 'read', input: { path: 'a.toml', lines: [1, 2] } },
        { type: 'tool_call', id: 'call_b', name: 'read', input: {} },
      ],
      usage: { input: 30, output: 20 },
    });
    expect(response.message.content).toEqual([
      { type: 'thinking', thinking: 'Read both files.' },
      {
        type: 'tool_use',
        id: 'call_a',
        name: 'read',
        input: { path: 'a.toml', lines: [1, 2] },
        providerMetadata: { ollama: { toolCallId: 'call_a' } },
      },
      {
        type: 'tool_use',
        id: 'call_b',
        name: 'read',
        input: {},
        providerMetadata: { ollama: { toolCallId: 'call_b' } },
      },
    ]);
    expect(events.filter((event) => event.type === 'tool-call-input-delta')).toEqual([
      { type: 'tool-call-input-delta', blockId: '1', delta: '{"path":"a.toml","lines":[1,2]}' },
    ]);
    expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'stop' });
  });

  it('calls without ids (older Ollama) get generated ids, unique across turns', async () => {
    const turn: MockTurn = {
      content: [
        { type: 'tool_call', name: 'read', input: { path: 'a' } },
        { type: 'tool_call', name: 'read', input: { path: 'b' } },
      ],
      fault: { kind: 'missing_tool_ids' },
    };
    const first = (await streamTurn(turn)).response;
    const second = (await streamTurn(turn)).response;
    const ids = [first, second].flatMap((response) =>
      response.message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : [])),
    );
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^call_[a-z0-9]+_[01]$/);
    expect(first.message.content[0]?.providerMetadata).toBeUndefined();
  });

  it.each([
    [{ stopReason: 'max_tokens' as const }, { unified: 'length', raw: 'length' }],
    [{ rawStopReason: 'unload' }, { unified: 'other', raw: 'unload' }],
    [{ rawStopReason: 'load' }, { unified: 'other', raw: 'load' }],
    [{ rawStopReason: 'something_new' }, { unified: 'other', raw: 'something_new' }],
  ])('done_reason %j maps to %j', async (turn, finishReason) => {
    const { response } = await streamTurn({ text: 'x', ...turn });
    expect(response.finishReason).toEqual(finishReason);
  });

  it('an error line after content ends the stream with that error', async () => {
    mock.setScript({
      steps: [
        {
          text: 'Partial answer here',
          chunking: { textDelta: 4 },
          fault: {
            kind: 'mid_stream_error',
            afterEvents: 2,
            message: 'an error was encountered while running the model',
          },
        },
      ],
    });
    const events = await collectEvents(provider().streamMessage(request));
    expectWellFormed(events);
    expect(
      events.filter((event) => event.type === 'text-delta').map((event) => event.type === 'text-delta' && event.delta),
    ).toEqual(['Part', 'ial ']);
    const last = events.at(-1);
    expect(last?.type === 'error' && last.error.reason).toBe('server');
    expect(last?.type === 'error' && last.error.message).toContain('reported an error in the stream');
  });

  it('createMessage and streamMessage assemble the same message, and the stream flag is always sent', async () => {
    const turn: MockTurn = {
      content: [
        { type: 'thinking', thinking: 'Hmm.' },
        { type: 'text', text: 'Calling.' },
        { type: 'tool_call', id: 'fixed', name: 'grep', input: { pattern: 'port' } },
      ],
      usage: { input: 12, output: 9 },
    };
    mock.setScript({ steps: [turn, turn] });
    const streamed = await assembleMessage(provider().streamMessage(request));
    const created = await provider().createMessage(request);
    expect(created.message).toEqual(streamed.message);
    expect(created.usage).toEqual(streamed.usage);
    expect(created.finishReason).toEqual(streamed.finishReason);
    expect(mock.requests.map((sent) => (sent.body as { stream: unknown }).stream)).toEqual([true, false]);
    expect(mock.requests.map((sent) => sent.path)).toEqual(['/api/chat', '/api/chat']);
  });

  it('listModels reads /api/tags', async () => {
    const server = await startMockServer({ models: ['llama3.2:latest', 'qwen3:8b'] });
    try {
      const models = await createOllamaProvider({ baseURL: server.url, env: {} }).listModels();
      expect(models).toEqual([{ id: 'llama3.2:latest' }, { id: 'qwen3:8b' }]);
      expect(server.requests[0]?.path).toBe('/api/tags');
    } finally {
      await server.close();
    }
  });
});
