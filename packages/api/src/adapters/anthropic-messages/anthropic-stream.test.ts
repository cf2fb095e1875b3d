import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../spec/stream-event.js';
import { AnthropicStreamDecoder } from './anthropic-stream.js';

function decode(payloads: readonly unknown[]): StreamEvent[] {
  const decoder = new AnthropicStreamDecoder({ errorContext: { providerId: 'anthropic' } });
  const out: StreamEvent[] = [];
  for (const payload of payloads) {
    if (typeof payload === 'string') decoder.handleData(payload, out);
    else decoder.handle(payload, out);
  }
  return out;
}

const start = {
  type: 'message_start',
  message: { id: 'msg_1', model: 'claude-x', usage: { input_tokens: 5, output_tokens: 1 } },
};
const stop = { type: 'message_stop' };

describe('AnthropicStreamDecoder', () => {
  it('emits message-start with id and model and a usage event from message_start', () => {
    expect(decode([start])).toEqual([
      { type: 'message-start', id: 'msg_1', model: 'claude-x' },
      {
        type: 'usage',
        usage: {
          input: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 },
          output: { total: 1, text: 1, reasoning: 0 },
        },
        raw: { input_tokens: 5, output_tokens: 1 },
      },
    ]);
  });

  it('yields nothing for pings, unknown events and unknown delta types (citations)', () => {
    const events = decode([
      start,
      { type: 'ping' },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'citations_delta', citation: { cited_text: 'x' } } },
      { type: 'some_future_event', index: 0 },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '' } },
    ]).slice(2);
    expect(events).toEqual([{ type: 'text-start', blockId: '0' }]);
  });

  it('emits text and thinking a compatible server puts in the block start', () => {
    const events = decode([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: 'Hmm', signature: 'sig' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: 'Hi' } },
    ]).slice(2);
    expect(events).toEqual([
      { type: 'thinking-start', blockId: '0' },
      { type: 'thinking-delta', blockId: '0', delta: 'Hmm' },
      { type: 'thinking-signature-delta', blockId: '0', delta: 'sig' },
      { type: 'thinking-end', blockId: '0' },
      { type: 'text-start', blockId: '1' },
      { type: 'text-delta', blockId: '1', delta: 'Hi' },
    ]);
  });

  it('opens the block a delta implies when its start is missing', () => {
    const events = decode([start, { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'x' } }]);
    expect(events.slice(2)).toEqual([
      { type: 'text-start', blockId: '3' },
      { type: 'text-delta', blockId: '3', delta: 'x' },
    ]);
  });

  it('takes tool input from the block start when no deltas come, and parses text input', () => {
    const events = decode([
      start,
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 't1', name: 'a', input: { x: 1 } },
      },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 't2', name: 'b', input: '{"y":' },
      },
      { type: 'content_block_stop', index: 1 },
    ]);
    const ends = events.filter((event) => event.type === 'tool-call-end');
    expect(ends[0]).toMatchObject({ toolCallId: 't1', input: { x: 1 } });
    expect(ends[0]).not.toHaveProperty('inputError');
    expect(ends[1]).toMatchObject({
      toolCallId: 't2',
      input: {},
      inputError: { kind: 'invalid-json', rawInput: '{"y":' },
    });
  });

  it('prefers the argument deltas over the empty input of the block start', () => {
    const events = decode([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't1', name: 'a', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"q":' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"v"}' } },
      { type: 'content_block_stop', index: 0 },
    ]);
    expect(events.filter((event) => event.type === 'tool-call-input-delta')).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'tool-call-end', input: { q: 'v' } });
  });

  it('makes tool-call ids unique and fills in missing ones', () => {
    const events = decode([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'same', name: 'a' } },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'same', name: 'a' } },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', name: 'a' } },
      { type: 'content_block_start', index: 3, content_block: { type: 'tool_use', id: 'same', name: 'a' } },
    ]);
    const ids = events.flatMap((event) => (event.type === 'tool-call-start' ? [event.toolCallId] : []));
    expect(ids).toEqual(['same', 'same_2', 'call_2', 'same_3']);
  });

  it('closes blocks still open at message_stop, then ends with the finish reason and metadata', () => {
    const events = decode([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'message_delta', delta: { stop_reason: 'max_tokens', stop_sequence: null }, usage: { output_tokens: 9 } },
      stop,
    ]);
    expect(events.slice(-3)).toEqual([
      {
        type: 'usage',
        usage: {
          input: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 },
          output: { total: 9, text: 9, reasoning: 0 },
        },
        raw: { input_tokens: 5, output_tokens: 9 },
      },
      { type: 'text-end', blockId: '0' },
      {
        type: 'message-end',
        finishReason: { unified: 'length', raw: 'max_tokens' },
        usage: {
          input: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 },
          output: { total: 9, text: 9, reasoning: 0 },
        },
        raw: { input_tokens: 5, output_tokens: 9 },
      },
    ]);
  });

  it('keeps unknown block types as server blocks with their position and parsed input', () => {
    const events = decode([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'a' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'server_tool_use', id: 's1', name: 'web_search', input: {} },
      },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"query":"x"}' } },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'web_search_tool_result', tool_use_id: 's1', content: [] },
      },
      { type: 'content_block_stop', index: 2 },
      { type: 'message_delta', delta: { stop_reason: 'pause_turn' } },
      stop,
    ]);
    const end = events.at(-1);
    expect(end?.type === 'message-end' && end.finishReason.unified).toBe('pause');
    expect(end?.type === 'message-end' && end.providerMetadata).toEqual({
      anthropic: {
        serverBlocks: [
          { position: 1, block: { type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: 'x' } } },
          { position: 1, block: { type: 'web_search_tool_result', tool_use_id: 's1', content: [] } },
        ],
      },
    });
    expect(events.some((event) => 'blockId' in event && event.blockId === '1')).toBe(false);
  });

  it.each([
    ['overloaded_error', 'overloaded', true],
    ['rate_limit_error', 'rate_limit', true],
    ['api_error', 'server', true],
    ['invalid_request_error', 'invalid_request', false],
    ['something_new', 'server', true],
  ])('turns an in-stream %s into a terminal %s error and ignores what follows', (type, reason, retryable) => {
    const events = decode([start, { type: 'error', error: { type, message: 'failure' } }, stop]);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { reason, isRetryable: retryable } });
    expect(events.filter((event) => event.type === 'message-end')).toEqual([]);
  });

  it('turns a data line that is not JSON into a terminal server error', () => {
    const events = decode([start, '{"type":"content_block_delta",', stop]);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { reason: 'server' } });
    expect(events.at(-1)?.type === 'error' && events.at(-1)).toBeTruthy();
  });

  it('ignores a second message_start and events of the wrong shape', () => {
    const events = decode([
      start,
      start,
      { type: 'content_block_start', content_block: { type: 'text' } },
      { type: 'content_block_delta', index: 'zero', delta: { type: 'text_delta', text: 'x' } },
      { type: 'message_delta', delta: 'nonsense' },
    ]);
    expect(events.filter((event) => event.type === 'message-start')).toHaveLength(1);
    expect(events.filter((event) => 'blockId' in event)).toEqual([]);
  });

  it('starts the message even when message_start never came', () => {
    expect(decode([{ type: 'message_stop' }])).toEqual([
      { type: 'message-start' },
      {
        type: 'message-end',
        finishReason: { unified: 'other', raw: undefined },
        usage: {
          input: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
          output: { total: 0, text: 0, reasoning: 0 },
        },
      },
    ]);
  });
});
