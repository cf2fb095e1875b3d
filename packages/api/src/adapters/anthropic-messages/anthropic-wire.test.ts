import { describe, expect, it } from 'vitest';
import {
  anthropicMessageSchema,
  anthropicUsageSchema,
  isPlainAnthropicUsage,
  isPlainMessageDeltaEvent,
  isPlainMessageStartEvent,
  messageDeltaEventSchema,
  messageStartEventSchema,
  readContentBlockDelta,
} from './anthropic-wire.js';

describe('readContentBlockDelta', () => {
  it('reads index and the delta fields of each delta type', () => {
    expect(readContentBlockDelta({ index: 2, delta: { type: 'text_delta', text: 'a' } })).toEqual({
      index: 2,
      delta: { type: 'text_delta', text: 'a' },
    });
    expect(readContentBlockDelta({ index: 0, delta: { type: 'signature_delta', signature: 's' } })?.delta).toEqual({
      type: 'signature_delta',
      signature: 's',
    });
    expect(readContentBlockDelta({ index: 0, delta: { type: 'input_json_delta', partial_json: '{' } })?.delta).toEqual({
      type: 'input_json_delta',
      partial_json: '{',
    });
  });

  it('rejects a missing index or delta type and drops text fields of the wrong type', () => {
    expect(readContentBlockDelta({ delta: { type: 'text_delta', text: 'a' } })).toBeUndefined();
    expect(readContentBlockDelta({ index: 0, delta: { text: 'a' } })).toBeUndefined();
    expect(readContentBlockDelta({ index: 0, delta: null })).toBeUndefined();
    expect(readContentBlockDelta({ index: 0, delta: { type: 'text_delta', text: 5 } })).toEqual({
      index: 0,
      delta: { type: 'text_delta' },
    });
  });
});

describe('lenient response schemas', () => {
  it('keeps unknown fields and turns wrongly typed fields into undefined', () => {
    const usage = anthropicUsageSchema.parse({ input_tokens: 'many', output_tokens: 4, service_tier: 'standard' });
    expect(usage).toEqual({ input_tokens: undefined, output_tokens: 4, service_tier: 'standard' });
  });

  it('parses a message whose content is not a list as empty content', () => {
    expect(anthropicMessageSchema.parse({ content: 'oops', stop_reason: 'end_turn' }).content).toEqual([]);
  });

  it('accepts a message_delta without usage and with null stop fields', () => {
    const parsed = messageDeltaEventSchema.parse({
      type: 'message_delta',
      delta: { stop_reason: null, stop_sequence: null },
    });
    expect(parsed.delta.stop_reason).toBeNull();
    expect(parsed.usage).toBeUndefined();
  });
});

describe('isPlainMessageStartEvent / isPlainMessageDeltaEvent', () => {
  const usage = {
    input_tokens: 12,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: null,
    output_tokens: 3,
    service_tier: 'standard',
    output_tokens_details: { thinking_tokens: 1 },
  };
  const start = (message: unknown) => ({ type: 'message_start', message });
  const delta = (deltaValue: unknown, usageValue: unknown = { output_tokens: 40 }) => ({
    type: 'message_delta',
    delta: deltaValue,
    usage: usageValue,
  });
  // Shapes the API sends: the schema passes them on unchanged, so the fast check may vouch for them.
  const plainStarts = [
    start({ id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [], usage }),
    start({ id: null, model: 'claude' }),
    start({ usage: null }),
  ];
  const plainDeltas = [
    delta({ stop_reason: 'end_turn', stop_sequence: null }),
    delta({ stop_reason: 'refusal', stop_details: { category: 'cyber' }, container: { id: 'c' } }, usage),
    delta({}, null),
  ];
  // Anything the schema would change or reject: zod decides.
  const oddStarts = [
    null,
    start(undefined),
    start([]),
    start({ id: 5 }),
    start({ model: {} }),
    start({ usage: 'many' }),
    start({ usage: { input_tokens: '12' } }),
    start({ usage: { output_tokens_details: 1 } }),
    start({ usage: { output_tokens_details: { thinking_tokens: '1' } } }),
    { ...start({}), type: 'message_delta' },
  ];
  const oddDeltas = [
    null,
    delta(null),
    delta([]),
    delta({ stop_reason: 1 }),
    delta({ stop_sequence: [] }),
    delta({ stop_details: 'x' }),
    delta({ container: [] }),
    delta({}, { cache_read_input_tokens: true }),
    delta({}, [1]),
    { ...delta({}), type: 'message_start' },
  ];

  it('vouches only for events the schema passes on unchanged', () => {
    for (const value of plainStarts) {
      expect(isPlainMessageStartEvent(value), JSON.stringify(value)).toBe(true);
      expect(messageStartEventSchema.parse(value)).toEqual(value);
    }
    for (const value of plainDeltas) {
      expect(isPlainMessageDeltaEvent(value), JSON.stringify(value)).toBe(true);
      expect(messageDeltaEventSchema.parse(value)).toEqual(value);
    }
    for (const value of oddStarts) expect(isPlainMessageStartEvent(value), JSON.stringify(value)).toBe(false);
    for (const value of oddDeltas) expect(isPlainMessageDeltaEvent(value), JSON.stringify(value)).toBe(false);
    expect(isPlainAnthropicUsage(undefined)).toBe(true);
    expect(isPlainAnthropicUsage(usage)).toBe(true);
    expect(isPlainAnthropicUsage({ output_tokens: '3' })).toBe(false);
  });
});
