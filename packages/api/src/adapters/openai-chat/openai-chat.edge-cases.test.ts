import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssistantResponse } from '../../spec/response.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { assemble, collectEvents, expectWellFormed, textOf } from './openai-chat.test.helpers.js';
import { createOpenAIChatProvider } from './openai-chat-provider.js';

// Hand-written streams for what the recordings miss (part of the conformance suite): each is a
// chunks file in a temporary folder, replayed through the mock like a recording.

let mock: MockServer;
let scratch: string;
let fileCounter = 0;

beforeAll(async () => {
  mock = await startMockServer();
  scratch = mkdtempSync(join(tmpdir(), 'openai-chat-edge-cases-'));
});

afterAll(async () => {
  await mock.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Writes one chunk (or raw line) per line and streams it through the adapter. */
async function stream(
  chunks: ReadonlyArray<Record<string, unknown> | string>,
): Promise<{ events: StreamEvent[]; response: AssistantResponse }> {
  fileCounter += 1;
  const path = join(scratch, `case-${fileCounter}.chunks.txt`);
  writeFileSync(path, chunks.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n'));
  mock.setScript({ steps: [{ replay: path, protocol: 'openai-chat' }] });
  const provider = createOpenAIChatProvider({ baseURL: `${mock.url}/v1`, apiKey: 'k', retry: { maxRetries: 0 } });
  const events = await collectEvents(
    provider.streamMessage({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }),
  );
  expectWellFormed(events);
  return { events, response: assemble(events) };
}

function chunk(delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) {
  return {
    id: 'chatcmpl-case',
    object: 'chat.completion.chunk',
    model: 'case-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  };
}

describe('hand-written streams for what the recordings miss', () => {
  it('tool calls: interleaved by index, arguments split inside a unicode escape, name sent once then ""', async () => {
    const { response } = await stream([
      chunk({
        role: 'assistant',
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'write', arguments: '' } }],
      }),
      chunk({
        tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'read', arguments: '{"pa' } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { name: '', arguments: '{"text":"caf\\u00' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { name: '', arguments: 'th":"x"}' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'e9"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(response.message.content).toEqual([
      { type: 'tool_use', id: 'call_a', name: 'write', input: { text: 'café' } },
      { type: 'tool_use', id: 'call_b', name: 'read', input: { path: 'x' } },
    ]);
  });

  it('tool calls: no index (fall back to the id, then to the open call), an id that comes late or never', async () => {
    const { response } = await stream([
      chunk({ tool_calls: [{ function: { name: 'first', arguments: '{"a":' } }] }),
      chunk({ tool_calls: [{ id: 'late_id', function: { arguments: '1}' } }] }),
      chunk({ tool_calls: [{ id: 'call_two', function: { name: 'second', arguments: '{}' } }] }),
      chunk({ tool_calls: [{ function: { name: 'third', arguments: '{"c":3}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const calls = response.message.content;
    expect(calls).toHaveLength(3);
    expect(calls[0]).toEqual({ type: 'tool_use', id: 'late_id', name: 'first', input: { a: 1 } });
    expect(calls[1]).toEqual({ type: 'tool_use', id: 'call_two', name: 'second', input: {} });
    expect(calls[2]).toMatchObject({ type: 'tool_use', name: 'third', input: { c: 3 } });
    expect((calls[2] as { id: string }).id).toMatch(/^call_2_[0-9a-f]{8}$/);
  });

  it('tool calls: the same index reused for a new call with a different id', async () => {
    const { response } = await stream([
      chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'a', arguments: '{"n":1}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'call_2', function: { name: 'b', arguments: '{"n":2}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(response.message.content).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'a', input: { n: 1 } },
      { type: 'tool_use', id: 'call_2', name: 'b', input: { n: 2 } },
    ]);
  });

  it('tool calls: arguments already parsed as an object', async () => {
    const { response } = await stream([
      chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'read', arguments: { path: 'a' } } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(response.message.content).toEqual([{ type: 'tool_use', id: 'c1', name: 'read', input: { path: 'a' } }]);
  });

  it('tool calls ending with finish_reason "stop" (local servers) are still tool-calls', async () => {
    const { response } = await stream([
      chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'ls', arguments: '{}' } }] }),
      chunk({}, 'stop'),
    ]);
    expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'stop' });
  });

  it('refusal deltas become a text block marked as a refusal, and the finish is refusal', async () => {
    const { response } = await stream([
      chunk({ role: 'assistant', content: null, refusal: "I'm sorry, " }),
      chunk({ refusal: "I can't help with that." }),
      chunk({}, 'stop'),
    ]);
    expect(response.message.content).toEqual([
      {
        type: 'text',
        text: "I'm sorry, I can't help with that.",
        providerMetadata: { 'openai-chat': { refusal: true } },
      },
    ]);
    expect(response.finishReason).toEqual({ unified: 'refusal', raw: 'stop' });
  });

  it('a server sending both reasoning fields with the same text is not doubled', async () => {
    const { response } = await stream([
      chunk({ reasoning_content: 'think', reasoning: 'think' }),
      chunk({ content: 'done' }),
      chunk({}, 'stop'),
    ]);
    expect(response.message.content).toEqual([
      { type: 'thinking', thinking: 'think' },
      { type: 'text', text: 'done' },
    ]);
  });

  it('OpenRouter reasoning_details are merged by index and kept on the message', async () => {
    const { response } = await stream([
      chunk({
        reasoning: 'Let me ',
        reasoning_details: [{ type: 'reasoning.text', text: 'Let me ', index: 0, format: 'anthropic-claude-v1' }],
      }),
      chunk({
        reasoning: 'think.',
        reasoning_details: [{ type: 'reasoning.text', text: 'think.', signature: 'sig-1', index: 0 }],
      }),
      chunk({ content: 'Answer' }),
      chunk({}, 'stop'),
    ]);
    expect(response.message.providerMetadata).toEqual({
      'openai-chat': {
        reasoning_details: [
          {
            type: 'reasoning.text',
            text: 'Let me think.',
            index: 0,
            format: 'anthropic-claude-v1',
            signature: 'sig-1',
          },
        ],
      },
    });
  });

  it('a line that is not JSON is skipped', async () => {
    const { response } = await stream([chunk({ content: 'a' }), 'not json at all', chunk({ content: 'b' }, 'stop')]);
    expect(textOf(response, 'text')).toBe('ab');
  });

  it('an error chunk mid-stream (OpenRouter style, next to finish_reason "error") ends with the classified error', async () => {
    const { events } = await stream([
      chunk({ content: 'Partial' }),
      chunk({ content: '' }, 'error', {
        error: { code: 502, message: 'Provider returned error: upstream overloaded' },
      }),
    ]);
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    if (last?.type !== 'error') return;
    expect(last.error.reason).toBe('overloaded');
    expect(last.error.status).toBe(502);
    expect(last.error.message).toContain('upstream overloaded');
  });

  it('a context-overflow error chunk carries the token counts', async () => {
    const { events } = await stream([
      chunk({ content: 'x' }),
      {
        error: {
          message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens",
          type: 'BadRequestError',
          code: 400,
        },
      },
    ]);
    const last = events.at(-1);
    expect(last?.type === 'error' && last.error.reason).toBe('context_overflow');
    expect(last?.type === 'error' && (last.error as { requestedTokens?: number }).requestedTokens).toBe(5000);
    expect(last?.type === 'error' && (last.error as { limitTokens?: number }).limitTokens).toBe(4096);
  });
});

describe('configuration', () => {
  it('refuses a base URL that is not absolute, at creation, saying what to pass', () => {
    expect(() => createOpenAIChatProvider({ baseURL: 'api.openai.com/v1' })).toThrow(
      /not an absolute URL.*https:\/\/api\.openai\.com\/v1/,
    );
  });

  it('reads the key when a request is made, not at creation', async () => {
    const env: Record<string, string | undefined> = {};
    const lazy = createOpenAIChatProvider({ baseURL: `${mock.url}/v1`, env, retry: { maxRetries: 0 } });
    expect(lazy.id).toBe('openai-chat');
    expect(lazy.name).toBe('OpenAI Chat Completions');
    env.OPENAI_API_KEY = 'sk-set-after-creation-4321';
    mock.setScript({ steps: [{ text: 'ok' }] });
    const events = await collectEvents(lazy.streamMessage({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }));
    expect(textOf(assemble(events), 'text')).toBe('ok');
    expect(mock.requests.at(-1)?.headers.authorization).toMatch(/4321$/);
  });
});

describe('listModels', () => {
  it("reads the context fields vendors add, and Together's bare array", async () => {
    const bodies = [
      {
        object: 'list',
        data: [
          {
            id: 'llama-3.3-70b-versatile',
            object: 'model',
            created: 1_733_447_754,
            context_window: 131_072,
            max_completion_tokens: 32_768,
          },
          {
            id: 'anthropic/claude-sonnet-4',
            name: 'Claude Sonnet 4',
            context_length: 200_000,
            top_provider: { max_completion_tokens: 64_000 },
          },
        ],
      },
      [{ id: 'meta-llama/Llama-3-8b', display_name: 'Llama 3 8B', context_length: 8192 }],
    ];
    const server = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(request.url === '/a/models' ? bodies[0] : bodies[1]));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const first = await createOpenAIChatProvider({ baseURL: `${origin}/a`, noApiKey: true }).listModels();
      expect(first).toEqual([
        {
          id: 'llama-3.3-70b-versatile',
          contextWindow: 131_072,
          maxOutputTokens: 32_768,
          createdAt: '2024-12-06T01:15:54.000Z',
        },
        { id: 'anthropic/claude-sonnet-4', name: 'Claude Sonnet 4', contextWindow: 200_000, maxOutputTokens: 64_000 },
      ]);
      const second = await createOpenAIChatProvider({ baseURL: `${origin}/b`, noApiKey: true }).listModels();
      expect(second).toEqual([{ id: 'meta-llama/Llama-3-8b', name: 'Llama 3 8B', contextWindow: 8192 }]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
