import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../spec/stream-event.js';
import { readOllamaStream, toOllamaReply } from './ollama-chunk.js';
import { OllamaResponseMapper } from './ollama-stream.js';
import { ollamaChatResponseSchema } from './ollama-wire.js';

const line = (message: Record<string, unknown>, extra: Record<string, unknown> = { done: false }) => ({
  model: 'qwen3:8b',
  created_at: '2025-01-01T00:00:00Z',
  message: { role: 'assistant', content: '', ...message },
  ...extra,
});
const done = { done: true, done_reason: 'stop', prompt_eval_count: 5, eval_count: 9, total_duration: 12 };

/** Whatever the fast path accepts, zod must accept with the same result; whatever zod rejects is skipped. */
describe('toOllamaReply', () => {
  it.each([
    ['a content line', line({ content: 'Hi' })],
    ['a thinking line', line({ thinking: 'hm' })],
    ['the done line', line({}, done)],
    ['an empty object', {}],
    ['unknown fields', { ...line({ content: 'a', images: null }), extra: [1] }],
    ['a tool call', line({ tool_calls: [{ function: { name: 'f', arguments: { a: 1 } } }] })],
    ['an error line', { error: 'model "x" not found' }],
  ])('accepts %s as the schema does', (_name, value) => {
    expect(toOllamaReply(value)).toEqual(ollamaChatResponseSchema.parse(value));
  });

  it.each([
    ['content of the wrong type', line({ content: 5 })],
    ['a null thinking', line({ thinking: null })],
    ['done as text', line({ content: 'a' }, { done: 'true' })],
    ['a count as text', line({}, { ...done, eval_count: '9' })],
    ['message as an array', { message: [] }],
    ['a tool call without a name', line({ tool_calls: [{ function: {} }] })],
    ['an array', [line({ content: 'a' })]],
    ['a number', 5],
    ['null', null],
  ])('skips %s, as the schema rejects it', (_name, value) => {
    expect(ollamaChatResponseSchema.safeParse(value).success).toBe(false);
    expect(toOllamaReply(value)).toBeUndefined();
  });
});

async function* body(chunks: string[], log: string[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) {
    log.push('read');
    yield new TextEncoder().encode(chunk);
  }
  log.push('ended');
}

async function collect(chunks: string[], log: string[] = []): Promise<(readonly StreamEvent[])[]> {
  const batches: (readonly StreamEvent[])[] = [];
  const mapper = new OllamaResponseMapper({ providerId: 'ollama', model: 'm', idToken: 'tok' });
  for await (const batch of readOllamaStream(body(chunks, log), mapper)) batches.push(batch);
  return batches;
}

const ndjson = (...values: unknown[]) => values.map((value) => `${JSON.stringify(value)}\n`).join('');

describe('readOllamaStream', () => {
  it('yields one batch per network chunk and reads the body to its end after the done line', async () => {
    const log: string[] = [];
    const batches = await collect(
      [ndjson(line({ content: 'a' }), line({ content: 'b' })), `not json\n${ndjson(line({}, done))}`, '\n'],
      log,
    );
    expect(batches.map((batch) => batch.map((event) => event.type))).toEqual([
      ['message-start', 'text-start', 'text-delta', 'text-delta'],
      ['text-end', 'message-end'],
    ]);
    expect(log).toEqual(['read', 'read', 'read', 'ended']);
  });

  it('stops after an error line', async () => {
    const log: string[] = [];
    const batches = await collect([ndjson(line({ content: 'a' }), { error: 'boom' }), ndjson(line({}, done))], log);
    expect(batches.flat().map((event) => event.type)).toEqual(['message-start', 'text-start', 'text-delta', 'error']);
    expect(log).toEqual(['read']);
  });
});
