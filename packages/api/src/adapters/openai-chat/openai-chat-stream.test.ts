import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../spec/stream-event.js';
import { assemble, expectWellFormed } from './openai-chat.test.helpers.js';
import { ChatStreamMapper, decodeChatStream, mergeReasoningDetails } from './openai-chat-stream.js';
import type { ChatChunk } from './openai-chat-wire.js';

function mapper() {
  return new ChatStreamMapper({
    providerId: 'test',
    reasoningFields: ['reasoning_content', 'reasoning'],
    idSuffix: 'abcd1234',
  });
}

function run(chunks: ChatChunk[], done = true): StreamEvent[] {
  const instance = mapper();
  const events: StreamEvent[] = [];
  for (const chunk of chunks) instance.push(chunk, events);
  instance.finish(done, events);
  return events;
}

const delta = (value: Record<string, unknown>, finish?: string): ChatChunk => ({
  id: 'c1',
  model: 'm',
  choices: [{ index: 0, delta: value, finish_reason: finish }],
});

describe('ChatStreamMapper', () => {
  it('opens a new block whenever the kind changes and closes all at the finish reason', () => {
    const events = run([
      delta({ reasoning_content: 'a' }),
      delta({ reasoning_content: 'b' }),
      delta({ content: 'x' }),
      delta({ reasoning_content: 'c' }),
      delta({}, 'stop'),
    ]);
    expectWellFormed(events);
    expect(assemble(events).message.content).toEqual([
      { type: 'thinking', thinking: 'ab' },
      { type: 'text', text: 'x' },
      { type: 'thinking', thinking: 'c' },
    ]);
  });

  it('ends at the end of the body when a finish reason came, even without [DONE]', () => {
    const events = run([delta({ content: 'hi' }, 'stop')], false);
    expect(events.at(-1)).toMatchObject({ type: 'message-end', finishReason: { unified: 'stop', raw: 'stop' } });
  });

  it('pushes no message-end for a body that ends with neither [DONE] nor a finish reason (cut)', () => {
    const events = run([delta({ content: 'hi' })], false);
    expect(events.some((event) => event.type === 'message-end')).toBe(false);
  });

  it('ends with finish reason other when [DONE] comes without one', () => {
    const events = run([delta({ content: 'hi' })], true);
    expect(events.at(-1)).toMatchObject({ type: 'message-end', finishReason: { unified: 'other', raw: undefined } });
    expectWellFormed(events);
  });

  it('starts the message at the first chunk with an id or choices, and without one before the end', () => {
    expect(run([{ choices: [], id: '', model: '' }, delta({ content: 'x' }, 'stop')])[0]).toEqual({
      type: 'message-start',
      id: 'c1',
      model: 'm',
    });
    expect(run([{ choices: [] }])[0]).toEqual({ type: 'message-start' });
  });

  it('reads only the first choice', () => {
    const events = run([
      {
        choices: [
          { index: 1, delta: { content: 'second' } },
          { index: 0, delta: { content: 'first' } },
        ],
      },
      delta({}, 'stop'),
    ]);
    expect(assemble(events).message.content).toEqual([{ type: 'text', text: 'first' }]);
  });

  it('reads reasoning fields in the configured order only', () => {
    const instance = new ChatStreamMapper({ providerId: 't', reasoningFields: ['reasoning'] });
    const events: StreamEvent[] = [];
    instance.push(delta({ reasoning_content: 'ignored', reasoning: 'used' }, 'stop'), events);
    instance.finish(true, events);
    expect(assemble(events).message.content).toEqual([{ type: 'thinking', thinking: 'used' }]);
  });

  it('emits usage when it changes, and the last usage wins', () => {
    const events = run([
      { ...delta({ content: 'a' }), usage: { prompt_tokens: 5, completion_tokens: 1 } },
      { ...delta({ content: 'b' }), usage: { prompt_tokens: 5, completion_tokens: 1 } },
      { ...delta({}, 'stop'), usage: { prompt_tokens: 5, completion_tokens: 2 } },
    ]);
    expect(events.filter((event) => event.type === 'usage')).toHaveLength(2);
    expect(assemble(events).usage.output.total).toBe(2);
  });

  it('takes usage from x_groq when the top-level one is missing', () => {
    const events = run([{ ...delta({}, 'stop'), x_groq: { usage: { prompt_tokens: 7, completion_tokens: 3 } } }]);
    expect(assemble(events).usage.input.total).toBe(7);
  });

  it('turns an error chunk into one classified error event and ignores what follows', () => {
    const instance = mapper();
    const events: StreamEvent[] = [];
    instance.push(delta({ content: 'x' }), events);
    instance.push({ error: { message: 'Rate limit reached for requests', code: 'rate_limit_exceeded' } }, events);
    instance.push(delta({ content: 'y' }), events);
    instance.finish(true, events);
    expect(instance.done).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { reason: 'rate_limit' } });
    expect(events.filter((event) => event.type === 'text-delta')).toHaveLength(1);
  });
});

describe('mergeReasoningDetails', () => {
  it('merges pieces with the same index, concatenating text fields', () => {
    const details: Array<Record<string, unknown>> = [];
    mergeReasoningDetails(details, [{ type: 'reasoning.text', text: 'a', index: 0 }]);
    mergeReasoningDetails(details, [
      { type: 'reasoning.text', text: 'b', index: 0, signature: 's' },
      { type: 'reasoning.encrypted', data: 'e1', index: 1 },
    ]);
    mergeReasoningDetails(details, [{ type: 'reasoning.encrypted', data: 'e2', index: 1 }]);
    expect(details).toEqual([
      { type: 'reasoning.text', text: 'ab', index: 0, signature: 's' },
      { type: 'reasoning.encrypted', data: 'e1e2', index: 1 },
    ]);
  });

  it('without an index, extends the last detail of the same type', () => {
    const details: Array<Record<string, unknown>> = [];
    mergeReasoningDetails(details, [{ type: 'reasoning.summary', summary: 'x' }]);
    mergeReasoningDetails(details, [
      { type: 'reasoning.summary', summary: 'y' },
      { type: 'reasoning.text', text: 't' },
    ]);
    expect(details).toEqual([
      { type: 'reasoning.summary', summary: 'xy' },
      { type: 'reasoning.text', text: 't' },
    ]);
  });
});

describe('decodeChatStream', () => {
  const encoder = new TextEncoder();
  const sse = (value: unknown) => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;

  /** A body of the given network chunks that records how far it was read. */
  function body(chunks: string[]) {
    const state = { read: 0, finished: false };
    async function* generate() {
      for (const chunk of chunks) {
        state.read += 1;
        yield encoder.encode(chunk);
      }
      state.finished = true;
    }
    return { state, body: generate() };
  }

  async function decode(chunks: string[]) {
    const source = body(chunks);
    const batches: (readonly StreamEvent[])[] = [];
    for await (const batch of decodeChatStream(source.body, mapper())) batches.push(batch as readonly StreamEvent[]);
    return { batches, state: source.state };
  }

  it('yields one batch per network chunk that completed events, however the chunks split', async () => {
    const wire = sse(delta({ content: 'a' })) + sse(delta({ content: 'bé' })) + sse(delta({}, 'stop')) + sse('[DONE]');
    const whole = await decode([wire]);
    expect(whole.batches).toHaveLength(1);
    const split = await decode([wire.slice(0, 7), wire.slice(7, 150), wire.slice(150)]);
    expect(split.batches.flat()).toEqual(whole.batches.flat());
    expectWellFormed(whole.batches.flat());
    expect(assemble(whole.batches.flat()).message.content).toEqual([{ type: 'text', text: 'abé' }]);
  });

  it('reads the body to its end after [DONE] (so the connection is kept), ignoring what follows', async () => {
    const { batches, state } = await decode([
      sse(delta({ content: 'a' })) + sse('[DONE]'),
      sse(delta({ content: 'late' })),
      '',
    ]);
    expect(state).toEqual({ read: 3, finished: true });
    const events = batches.flat();
    expect(events.at(-1)?.type).toBe('message-end');
    expect(events.filter((event) => event.type === 'text-delta')).toHaveLength(1);
  });

  it('ends at the end of the body when a finish reason came without [DONE], and not otherwise', async () => {
    expect((await decode([sse(delta({ content: 'a' }, 'stop'))])).batches.flat().at(-1)?.type).toBe('message-end');
    expect((await decode([sse(delta({ content: 'a' }))])).batches.flat().at(-1)?.type).toBe('text-delta');
  });
});
