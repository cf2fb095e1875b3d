import { describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { expectWellFormed } from '../../test/stream-contract.js';
import { GeminiResponseMapper } from './gemini-stream.js';
import type { GeminiResponse } from './gemini-wire.js';

function run(chunks: GeminiResponse[], requireFinish = true): StreamEvent[] {
  const mapper = new GeminiResponseMapper({ providerId: 'gemini', idToken: 'tok' });
  const events: StreamEvent[] = [];
  for (const chunk of chunks) events.push(...mapper.push(chunk));
  events.push(...mapper.end(requireFinish));
  return events;
}

const parts = (...list: GeminiResponse[]): GeminiResponse[] => list;
const chunk = (partList: unknown[], finishReason?: string): GeminiResponse =>
  ({
    candidates: [{ content: { role: 'model', parts: partList }, ...(finishReason ? { finishReason } : {}) }],
  }) as GeminiResponse;

describe('GeminiResponseMapper', () => {
  it('reads several function calls in one chunk, with and without arguments', async () => {
    const events = run(
      parts(
        chunk(
          [
            { functionCall: { name: 'a', args: { x: 1 } }, thoughtSignature: 'sig' },
            { functionCall: { name: 'b' } },
            { functionCall: { name: 'c', args: {} } },
          ],
          'STOP',
        ),
      ),
    );
    expectWellFormed(events);
    const response = await assembleMessage(events);
    expect(response.message.content).toEqual([
      {
        type: 'tool_use',
        id: 'call_tok_0',
        name: 'a',
        input: { x: 1 },
        providerMetadata: { gemini: { thoughtSignature: 'sig' } },
      },
      { type: 'tool_use', id: 'call_tok_1', name: 'b', input: {} },
      { type: 'tool_use', id: 'call_tok_2', name: 'c', input: {} },
    ]);
    expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'STOP' });
  });

  it('a signature ends its part: later text starts a new block', async () => {
    const events = run(
      parts(
        chunk([{ text: 'First', thoughtSignature: 's1' }]),
        chunk([{ text: 'Second' }]),
        chunk([{ text: ' part' }, { text: '', thoughtSignature: 's2' }], 'STOP'),
      ),
    );
    expectWellFormed(events);
    expect((await assembleMessage(events)).message.content).toEqual([
      { type: 'text', text: 'First', providerMetadata: { gemini: { thoughtSignature: 's1' } } },
      { type: 'text', text: 'Second part', providerMetadata: { gemini: { thoughtSignature: 's2' } } },
    ]);
  });

  it('keeps a thought part that carries only a signature, and drops a text signature with no text block open', async () => {
    const events = run(
      parts(
        chunk([{ text: 'Thinking', thought: true }]),
        chunk([{ functionCall: { name: 'f' } }]),
        chunk([{ text: '', thoughtSignature: 'orphan' }]),
        chunk([{ text: '', thought: true, thoughtSignature: 'thought-sig' }], 'STOP'),
      ),
    );
    expectWellFormed(events);
    expect((await assembleMessage(events)).message.content).toEqual([
      { type: 'thinking', thinking: 'Thinking' },
      { type: 'tool_use', id: 'call_tok_1', name: 'f', input: {} },
      { type: 'thinking', thinking: '', providerMetadata: { gemini: { thoughtSignature: 'thought-sig' } } },
    ]);
  });

  it('reports arguments that are not an object as inputError', async () => {
    const events = run(
      parts(
        chunk(
          [{ functionCall: { name: 'a', args: '{"path": "x' } }, { functionCall: { name: 'b', args: [1, 2] } }],
          'STOP',
        ),
      ),
    );
    const ends = events.filter((event) => event.type === 'tool-call-end');
    expect(ends).toMatchObject([
      { input: {}, inputError: { kind: 'invalid-json', rawInput: '{"path": "x' } },
      { input: {}, inputError: { kind: 'not-an-object' } },
    ]);
  });

  it('assembles streamed arguments and closes an unfinished call at the end', async () => {
    const events = run(
      parts(
        chunk([
          {
            functionCall: {
              id: 'g1',
              name: 'search',
              willContinue: true,
              partialArgs: [{ jsonPath: '$.q', stringValue: 'po', willContinue: true }],
            },
          },
        ]),
        chunk([
          {
            functionCall: {
              partialArgs: [
                { jsonPath: '$.q', stringValue: 'rt' },
                { jsonPath: '$.n', numberValue: 2 },
              ],
              willContinue: true,
            },
          },
        ]),
        chunk([{ text: '' }], 'STOP'),
      ),
    );
    expectWellFormed(events);
    expect(events.filter((event) => event.type === 'tool-call-input-delta')).toEqual([
      { type: 'tool-call-input-delta', blockId: '0', delta: '{"q":"port","n":2}' },
    ]);
    expect((await assembleMessage(events)).message.content).toEqual([
      {
        type: 'tool_use',
        id: 'g1',
        name: 'search',
        input: { q: 'port', n: 2 },
        providerMetadata: { gemini: { functionCallId: 'g1' } },
      },
    ]);
  });

  it('ignores a continuation with no call open', () => {
    const events = run(parts(chunk([{ functionCall: { partialArgs: [] } }, { text: 'ok' }], 'STOP')));
    expect(events.map((event) => event.type)).toEqual([
      'message-start',
      'text-start',
      'text-delta',
      'text-end',
      'message-end',
    ]);
  });

  it('a blocked prompt (no candidates) ends as content-filter with its usage', async () => {
    const events = run([
      { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 7 } },
    ]);
    expectWellFormed(events);
    const response = await assembleMessage(events);
    expect(response.message.content).toEqual([]);
    expect(response.finishReason).toEqual({ unified: 'content-filter', raw: 'PROHIBITED_CONTENT' });
    expect(response.usage.input.total).toBe(7);
  });

  it('an error chunk becomes one classified error event and nothing follows', () => {
    const events = run(
      parts(
        chunk([{ text: 'Hi' }]),
        { error: { code: 429, message: 'Resource exhausted.', status: 'RESOURCE_EXHAUSTED' } },
        chunk([{ text: 'more' }], 'STOP'),
      ),
    );
    expect(events.map((event) => event.type)).toEqual(['message-start', 'text-start', 'text-delta', 'error']);
    const last = events.at(-1);
    expect(last?.type === 'error' && last.error.reason).toBe('rate_limit');
  });

  it('a stream without finishReason emits no message-end; a whole body without one is "other"', () => {
    expect(run(parts(chunk([{ text: 'cut' }]))).some((event) => event.type === 'message-end')).toBe(false);
    const whole = run(parts(chunk([{ text: 'body' }])), false).at(-1);
    expect(whole).toMatchObject({ type: 'message-end', finishReason: { unified: 'other', raw: undefined } });
  });

  it('the last usage with counts wins', async () => {
    const events = run([
      { ...chunk([{ text: 'a' }]), usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 1 } },
      { ...chunk([{ text: 'b' }]), usageMetadata: { trafficType: 'ON_DEMAND' } as never },
      { ...chunk([], 'STOP'), usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, thoughtsTokenCount: 3 } },
    ]);
    expect((await assembleMessage(events)).usage.output).toEqual({ total: 5, text: 2, reasoning: 3 });
  });
});
