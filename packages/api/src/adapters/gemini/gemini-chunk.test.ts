import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../spec/stream-event.js';
import { parseGeminiChunk, readGeminiStream } from './gemini-chunk.js';
import { GeminiResponseMapper } from './gemini-stream.js';
import { geminiResponseSchema } from './gemini-wire.js';

const textChunk = (text: string, extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0, ...extra }],
  usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 },
  modelVersion: 'gemini-2.5-flash',
  responseId: 'r1',
});

/** Whatever the fast path accepts, zod must accept with the same result; whatever zod rejects, so must the parse. */
describe('parseGeminiChunk', () => {
  it.each([
    ['a text chunk', textChunk('Hi')],
    [
      'a thought part with a signature',
      { candidates: [{ content: { parts: [{ text: 'x', thought: true, thoughtSignature: 's' }] } }] },
    ],
    ['an empty object', {}],
    ['no parts', { candidates: [{ content: { role: 'model' }, finishReason: 'STOP' }] }],
    [
      'unknown fields',
      {
        ...textChunk('a'),
        extra: [1, 2],
        candidates: [{ safetyRatings: [], content: { parts: [{ text: 'a', x: 1 }] } }],
      },
    ],
    ['a function call', { candidates: [{ content: { parts: [{ functionCall: { name: 'f', args: { a: 1 } } }] } }] }],
    ['prompt feedback', { promptFeedback: { blockReason: 'SAFETY' } }],
    ['an error', { error: { code: 429, message: 'busy', status: 'RESOURCE_EXHAUSTED' } }],
    ['Vertex usage without counts', { ...textChunk('a'), usageMetadata: { trafficType: 'ON_DEMAND' } }],
    ['an array of responses', [textChunk('first'), textChunk('second')]],
  ])('accepts %s as the schema does', (_name, value) => {
    const viaSchema = geminiResponseSchema.parse(Array.isArray(value) ? value[0] : value);
    expect(parseGeminiChunk(JSON.stringify(value), 'gemini')).toEqual(viaSchema);
  });

  it.each([
    ['text of the wrong type', { candidates: [{ content: { parts: [{ text: 5 }] } }] }],
    ['a null text', { candidates: [{ content: { parts: [{ text: null }] } }] }],
    ['thought as a string', { candidates: [{ content: { parts: [{ text: 'a', thought: 'yes' }] } }] }],
    ['parts as an object', { candidates: [{ content: { parts: { text: 'a' } } }] }],
    ['candidates as an object', { candidates: { content: {} } }],
    ['a usage count as text', { ...textChunk('a'), usageMetadata: { promptTokenCount: '3' } }],
    ['a numeric model version', { ...textChunk('a'), modelVersion: 2 }],
    ['a number', 5],
    ['null', null],
  ])('rejects %s as the schema does, as a network error', (_name, value) => {
    expect(geminiResponseSchema.safeParse(value).success).toBe(false);
    expect(() => parseGeminiChunk(JSON.stringify(value), 'gemini')).toThrow(/unexpected shape/);
  });

  it('reports text that is not JSON as a cut connection', () => {
    expect(() => parseGeminiChunk('{"candidates":[', 'gemini')).toThrow(/not complete JSON/);
  });
});

function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

async function* body(chunks: string[], log: string[] = []): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) {
    log.push('read');
    yield bytes(chunk);
  }
  log.push('ended');
}

async function collect(
  chunks: string[],
  log: string[] = [],
): Promise<{ batches: (readonly StreamEvent[])[]; error?: unknown }> {
  const batches: (readonly StreamEvent[])[] = [];
  try {
    const mapper = new GeminiResponseMapper({ providerId: 'gemini', idToken: 'tok' });
    for await (const batch of readGeminiStream(body(chunks, log), mapper, 'gemini')) batches.push(batch);
    return { batches };
  } catch (error) {
    return { batches, error };
  }
}

const sse = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

describe('readGeminiStream', () => {
  it('yields one batch per network chunk and reads the body to its end after the finish reason', async () => {
    const log: string[] = [];
    const { batches, error } = await collect(
      [sse(textChunk('a')) + sse(textChunk('b')), sse(textChunk('', { finishReason: 'STOP' })), ': keep-alive\n\n'],
      log,
    );
    expect(error).toBeUndefined();
    // The finish chunk (whose events come at the body's end) and the trailing comment complete frames
    // but yield no event: keep-alives, empty batches that streamWithRetries never shows.
    expect(batches.map((batch) => batch.map((event) => event.type))).toEqual([
      ['message-start', 'text-start', 'text-delta', 'text-delta'],
      [],
      [],
      ['text-end', 'message-end'],
    ]);
    expect(log).toEqual(['read', 'read', 'read', 'ended']);
  });

  it('skips blank data and keeps events decoded before a garbled chunk', async () => {
    const { batches, error } = await collect([
      `data:  \n\n${sse(textChunk('a'))}data: {"cand\n\n${sse(textChunk('b'))}`,
    ]);
    expect(batches.flat().map((event) => event.type)).toEqual(['message-start', 'text-start', 'text-delta']);
    expect(error).toMatchObject({ reason: 'network' });
  });

  it('stops after an in-stream error', async () => {
    const log: string[] = [];
    const failure = sse({ error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } });
    const { batches, error } = await collect([sse(textChunk('a')) + failure + sse(textChunk('b')), 'data: {\n\n'], log);
    expect(error).toBeUndefined();
    expect(batches.flat().map((event) => event.type)).toEqual(['message-start', 'text-start', 'text-delta', 'error']);
    expect(log).toEqual(['read']);
  });
});
