import { describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { expectWellFormed } from './cohere.test.helpers.js';
import { CohereStreamDecoder, decodeCohereEventStream } from './cohere-stream.js';

async function map(...payloads: unknown[]): Promise<StreamEvent[]> {
  const decoder = new CohereStreamDecoder({ providerId: 'cohere', model: 'command-a' });
  const events: StreamEvent[] = [];
  for (const payload of payloads) {
    decoder.push(typeof payload === 'string' ? payload : JSON.stringify(payload), events);
  }
  return events;
}

const end = (finish_reason = 'COMPLETE') => ({
  type: 'message-end',
  delta: { finish_reason, usage: { tokens: { input_tokens: 3, output_tokens: 2 } } },
});

describe('CohereStreamDecoder', () => {
  it('takes the whole arguments when tool-call-start already carries them', async () => {
    const events = await map(
      { type: 'message-start', id: 'm1' },
      {
        type: 'tool-call-start',
        index: 0,
        delta: {
          message: { tool_calls: { id: 'c1', type: 'function', function: { name: 'read', arguments: '{"p":1}' } } },
        },
      },
      { type: 'tool-call-end', index: 0 },
      end('TOOL_CALL'),
    );
    expectWellFormed(events);
    expect((await assembleMessage(events)).message.content).toEqual([
      { type: 'tool_use', id: 'c1', name: 'read', input: { p: 1 } },
    ]);
  });

  it('closes the tool plan when content starts, and every open block at message-end', async () => {
    const events = await map(
      { type: 'tool-plan-delta', delta: { message: { tool_plan: 'plan' } } },
      { type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: 'first ' } } } },
      { type: 'content-delta', index: 0, delta: { message: { content: { text: 'rest' } } } },
      { type: 'citation-start', index: 0, delta: { message: { citations: { start: 0, end: 4, text: 'rest' } } } },
      { type: 'citation-end', index: 0 },
      end(),
    );
    expectWellFormed(events);
    const response = await assembleMessage(events);
    expect(response.message.content).toEqual([
      { type: 'thinking', thinking: 'plan', providerMetadata: { cohere: { toolPlan: true } } },
      { type: 'text', text: 'first rest' },
    ]);
    expect(events[0]).toEqual({ type: 'message-start', model: 'command-a' });
  });

  it('opens blocks for deltas whose start never came, with generated ids', async () => {
    const events = await map(
      { type: 'content-delta', index: 1, delta: { message: { content: { thinking: 'hm' } } } },
      { type: 'tool-call-delta', index: 3, delta: { message: { tool_calls: { function: { arguments: '{}' } } } } },
      end('TOOL_CALL'),
    );
    expectWellFormed(events);
    expect((await assembleMessage(events)).message.content).toEqual([
      { type: 'thinking', thinking: 'hm' },
      { type: 'tool_use', id: 'call_3', name: '', input: {} },
    ]);
  });

  it('turns an ERROR finish with an error text into one error event', async () => {
    const events = await map(
      { type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } },
      { type: 'content-delta', index: 0, delta: { message: { content: { text: 'partial' } } } },
      { type: 'message-end', delta: { finish_reason: 'ERROR', error: 'internal server error' } },
    );
    expectWellFormed(events);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { reason: 'server' } });
  });

  it('ends an ERROR finish without error text as a message with finish reason error', async () => {
    const events = await map({ type: 'message-end', delta: { finish_reason: 'ERROR' } });
    expect(events.at(-1)).toMatchObject({ type: 'message-end', finishReason: { unified: 'error', raw: 'ERROR' } });
  });

  it('yields no message-end when the stream stops early, and fails on an event that is not JSON', async () => {
    const events = await map({ type: 'content-delta', index: 0, delta: { message: { content: { text: 'x' } } } });
    expect(events.map((event) => event.type)).toEqual(['message-start', 'text-start', 'text-delta']);
    await expect(map('{"type": "content-delta", ')).rejects.toMatchObject({ reason: 'server', isRetryable: true });
    await expect(map({ delta: {} })).rejects.toMatchObject({ reason: 'server' });
  });

  it('ignores unknown events, blank data and [DONE]', async () => {
    const events = await map({ type: 'debug', prompt: 'x' }, '', '[DONE]', end());
    expect(events.map((event) => event.type)).toEqual(['message-start', 'message-end']);
  });
});

describe('decodeCohereEventStream', () => {
  const encoder = new TextEncoder();
  const sse = (value: unknown) =>
    `event: ${(value as { type?: string }).type ?? 'x'}\ndata: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
  const text = (piece: string) => ({
    type: 'content-delta',
    index: 0,
    delta: { message: { content: { text: piece } } },
  });

  /** Decodes network chunks; the batches, what was thrown, and how far the body was read. */
  async function decode(chunks: string[]) {
    const state = { read: 0, finished: false };
    async function* body() {
      for (const chunk of chunks) {
        state.read += 1;
        yield encoder.encode(chunk);
      }
      state.finished = true;
    }
    const batches: StreamEvent[][] = [];
    let thrown: unknown;
    try {
      const decoder = new CohereStreamDecoder({ providerId: 'cohere', model: 'command-a' });
      for await (const batch of decodeCohereEventStream(body(), decoder)) batches.push([...(batch as StreamEvent[])]);
    } catch (error) {
      thrown = error;
    }
    return { batches, thrown, state };
  }

  it('yields one batch per network chunk, and reads the body to its end after message-end', async () => {
    const { batches, thrown, state } = await decode([
      sse({ type: 'message-start', id: 'm1' }) + sse(text('a')) + sse(text('b')),
      sse(end()),
      sse(text('late')),
    ]);
    expect(thrown).toBeUndefined();
    // The late event completes a frame but yields nothing: a keep-alive (an empty batch).
    expect(batches.map((batch) => batch.length)).toEqual([4, 2, 0]);
    expect(state).toEqual({ read: 3, finished: true });
    expectWellFormed(batches.flat());
  });

  it('hands out the events decoded before a bad payload, then throws its error', async () => {
    const { batches, thrown } = await decode([sse(text('a')) + sse('{"type": "content-delta", ') + sse(text('b'))]);
    expect(batches.flat().map((event) => event.type)).toEqual(['message-start', 'text-start', 'text-delta']);
    expect(thrown).toMatchObject({ reason: 'server', isRetryable: true });
  });
});
