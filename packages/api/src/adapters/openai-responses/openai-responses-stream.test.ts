import { describe, expect, it } from 'vitest';
import type { SseEvent } from '../../shared/sse-parser.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { OpenAIResponsesStreamMapper } from './openai-responses-stream.js';

function mapper() {
  return new OpenAIResponsesStreamMapper({ providerId: 'openai', declaredToolNames: new Set(['lookup']) });
}

function sse(data: unknown, event = 'message'): SseEvent {
  return { event, data: typeof data === 'string' ? data : JSON.stringify(data), id: undefined, retry: undefined };
}

function feed(target: OpenAIResponsesStreamMapper, events: SseEvent[]): { out: StreamEvent[]; terminal: boolean[] } {
  const out: StreamEvent[] = [];
  const terminal = events.map((event) => target.handle(event, out));
  return { out, terminal };
}

describe('OpenAIResponsesStreamMapper', () => {
  it('yields nothing for keep-alives, [DONE], progress events and server-side tools', () => {
    const { out, terminal } = feed(mapper(), [
      sse({ type: 'keepalive', sequence_number: 3 }),
      sse('[DONE]'),
      sse({ type: 'response.web_search_call.in_progress', item_id: 'ws', output_index: 0 }),
      sse({ type: 'response.output_text.annotation.added' }),
    ]);
    expect(out).toEqual([]);
    expect(terminal).toEqual([false, false, false, false]);
  });

  it('starts the message once, with the response id and model', () => {
    const { out } = feed(mapper(), [
      sse({ type: 'response.created', response: { id: 'resp_1', model: 'gpt-5' } }),
      sse({ type: 'response.in_progress', response: { id: 'resp_1', model: 'gpt-5' } }),
    ]);
    expect(out).toEqual([{ type: 'message-start', id: 'resp_1', model: 'gpt-5' }]);
  });

  it('opens a text block for a delta whose item was never announced', () => {
    const { out } = feed(mapper(), [
      sse({ type: 'response.output_text.delta', item_id: 'msg_x', output_index: 0, content_index: 1, delta: 'hi' }),
    ]);
    expect(out).toEqual([
      { type: 'message-start' },
      { type: 'text-start', blockId: 'msg_x:1', providerMetadata: { 'openai-responses': { itemId: 'msg_x' } } },
      { type: 'text-delta', blockId: 'msg_x:1', delta: 'hi' },
    ]);
  });

  it('sends each delta to the block of its own item and part when parts and items interleave', () => {
    const delta = (item_id: string, output_index: number, content_index: number, text: string) =>
      sse({ type: 'response.output_text.delta', item_id, output_index, content_index, delta: text });
    const { out } = feed(mapper(), [
      delta('msg_a', 0, 0, 'a0'),
      delta('msg_a', 0, 0, 'a0+'),
      delta('msg_a', 0, 1, 'a1'),
      delta('msg_a', 0, 0, 'a0++'),
      sse({ type: 'response.refusal.delta', item_id: 'msg_a', output_index: 0, content_index: 1, delta: 'no' }),
      delta('msg_b', 1, 0, 'b0'),
      delta('msg_a', 0, 1, 'a1+'),
    ]);
    const deltas = out.flatMap((event) => (event.type === 'text-delta' ? [`${event.blockId}=${event.delta}`] : []));
    expect(deltas).toEqual([
      'msg_a:0=a0',
      'msg_a:0=a0+',
      'msg_a:1=a1',
      'msg_a:0=a0++',
      'msg_a:1=no',
      'msg_b:0=b0',
      'msg_a:1=a1+',
    ]);
    expect(out.filter((event) => event.type === 'text-start')).toHaveLength(3);
  });

  it('uses the SSE event name when the payload has no type', () => {
    const { out, terminal } = feed(mapper(), [sse({ response: { status: 'completed' } }, 'response.completed')]);
    expect(terminal).toEqual([true]);
    expect(out.at(-1)).toMatchObject({ type: 'message-end', finishReason: { unified: 'stop', raw: 'completed' } });
  });

  it('skips data that is not JSON or not an object, and reports them only if the stream never completes', () => {
    const target = mapper();
    const { out } = feed(target, [
      sse('{"type":"response.created","response":{', 'response.created'),
      sse('42'),
      sse({ type: 'response.output_text.delta', item_id: 'm', output_index: 0, content_index: 0, delta: 'kept' }),
    ]);
    expect(out.map((event) => event.type)).toEqual(['message-start', 'text-start', 'text-delta']);
    target.finish(out);
    const last = out.at(-1);
    expect(last?.type).toBe('error');
    if (last?.type !== 'error') return;
    expect(last.error).toMatchObject({ reason: 'unknown', isRetryable: true, providerId: 'openai' });
    expect(last.error.message).toContain('2 event(s) were not valid JSON and were skipped (response.created, message)');
  });

  it('adds nothing at the end of a clean stream that merely stopped (the retry layer reports that)', () => {
    const out: StreamEvent[] = [];
    mapper().finish(out);
    expect(out).toEqual([]);
  });

  it('turns an error event and a failed response into one terminal error', () => {
    const errorEvent = feed(mapper(), [
      sse({ type: 'error', code: 'rate_limit_exceeded', message: 'Slow down. Please try again in 2s.' }),
    ]);
    expect(errorEvent.terminal).toEqual([true]);
    expect(errorEvent.out).toMatchObject([{ type: 'error', error: { reason: 'rate_limit', retryAfterMs: 2_000 } }]);
    const failed = feed(mapper(), [sse({ type: 'response.failed', response: { status: 'failed' } })]);
    expect(failed.out).toMatchObject([{ type: 'error', error: { reason: 'server' } }]);
    expect(failed.out[0]?.type === 'error' && failed.out[0].error.message).toContain('The response failed');
  });

  it('closes blocks left open and ends calls whose done event never came when the response completes', () => {
    const { out } = feed(mapper(), [
      sse({ type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs' } }),
      sse({
        type: 'response.reasoning_summary_text.delta',
        item_id: 'rs',
        output_index: 0,
        summary_index: 0,
        delta: 'hm',
      }),
      sse({
        type: 'response.output_item.added',
        output_index: 1,
        item: { type: 'function_call', id: 'fc', call_id: 'c', name: 'lookup' },
      }),
      sse({ type: 'response.function_call_arguments.delta', item_id: 'fc', output_index: 1, delta: '{"q":1}' }),
      sse({
        type: 'response.completed',
        response: { status: 'completed', usage: { input_tokens: 3, output_tokens: 2 } },
      }),
    ]);
    expect(out.map((event) => event.type)).toEqual([
      'message-start',
      'thinking-start',
      'thinking-delta',
      'tool-call-start',
      'tool-call-input-delta',
      'thinking-end',
      'tool-call-end',
      'message-end',
    ]);
    expect(out.find((event) => event.type === 'tool-call-end')).toMatchObject({ input: { q: 1 }, toolCallId: 'c' });
    expect(out.at(-1)).toMatchObject({ finishReason: { unified: 'tool-calls' }, usage: { input: { total: 3 } } });
  });

  it('lets the complete arguments of the done event win over the deltas', () => {
    const { out } = feed(mapper(), [
      sse({
        type: 'response.output_item.added',
        output_index: 0,
        item: { type: 'function_call', id: 'fc', call_id: 'c', name: 'lookup' },
      }),
      sse({ type: 'response.function_call_arguments.delta', item_id: 'fc', output_index: 0, delta: '{"q":' }),
      sse({ type: 'response.function_call_arguments.done', item_id: 'fc', output_index: 0, arguments: '{"q":"full"}' }),
      sse({ type: 'response.completed', response: { status: 'completed' } }),
    ]);
    expect(out.find((event) => event.type === 'tool-call-end')).toMatchObject({ input: { q: 'full' } });
  });
});
