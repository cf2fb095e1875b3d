import { describe, expect, it } from 'vitest';
import {
  anthropicMessageSchema,
  anthropicUsageSchema,
  messageDeltaEventSchema,
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
