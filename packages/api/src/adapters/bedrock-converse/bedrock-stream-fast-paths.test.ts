import { describe, expect, it } from 'vitest';
import { fastDelta, isMessageStop } from './bedrock-stream-fast-paths.js';
import { contentBlockDeltaEventSchema, messageStopEventSchema } from './bedrock-wire.js';

const deltas: unknown[] = [
  { contentBlockIndex: 0, delta: { text: 'hi' } },
  { contentBlockIndex: 0, delta: { text: '' }, extra: 1 },
  { contentBlockIndex: 1, delta: { reasoningContent: { text: 'think' } } },
  { contentBlockIndex: 1, delta: { reasoningContent: { signature: 'sig' } } },
  { contentBlockIndex: 1, delta: { reasoningContent: { redactedContent: 'AAAA' } } },
  { contentBlockIndex: 1, delta: { reasoningContent: {} } },
  { contentBlockIndex: 2, delta: { toolUse: { input: '{"a"' } } },
  { contentBlockIndex: 0, delta: { text: 'x', reasoningContent: { text: 'y' } } },
  { contentBlockIndex: 0, delta: { text: 'x', toolUse: null } },
  { contentBlockIndex: 0, delta: { text: 'x', reasoningContent: null } },
  { contentBlockIndex: 0, delta: { text: 1 } },
  { contentBlockIndex: 0, delta: { text: null } },
  { contentBlockIndex: 0, delta: { reasoningContent: { text: 1 } } },
  { contentBlockIndex: 0, delta: { reasoningContent: [] } },
  { contentBlockIndex: 0, delta: { reasoningContent: null } },
  { contentBlockIndex: 0, delta: [] },
  { contentBlockIndex: 0, delta: null },
  { contentBlockIndex: 0 },
  { contentBlockIndex: '0', delta: { text: 'x' } },
  { delta: { text: 'x' } },
  [],
  null,
  'text',
  {},
];

describe('fastDelta', () => {
  it.each(deltas.map((payload) => [JSON.stringify(payload), payload]))(
    'accepts only what the schema accepts, and reads the same: %s',
    (_name, payload) => {
      const fast = fastDelta(payload);
      const parsed = contentBlockDeltaEventSchema.safeParse(payload);
      if (fast !== undefined) {
        expect(parsed.success).toBe(true);
        expect(fast).toEqual(parsed.data);
      }
    },
  );

  it('takes the common text and reasoning deltas without zod', () => {
    expect(fastDelta(deltas[0])).toBe(deltas[0]);
    expect(fastDelta(deltas[2])).toBe(deltas[2]);
    expect(fastDelta(deltas[4])).toBe(deltas[4]);
  });
});

describe('isMessageStop', () => {
  it.each([
    [{ stopReason: 'end_turn' }, true],
    [{ stopReason: 'end_turn', additionalModelResponseFields: { a: 1 } }, true],
    [{}, true],
    [{ stopReason: 1 }, false],
    [{ stopReason: null }, false],
    [[], false],
    [null, false],
  ])('%j: %s, as the schema decides', (payload, expected) => {
    expect(isMessageStop(payload)).toBe(expected);
    expect(messageStopEventSchema.safeParse(payload).success).toBe(expected);
  });
});
