import { describe, expect, it } from 'vitest';
import { mapGeminiBlockReason, mapGeminiFinishReason } from './gemini-finish-reason.js';

describe('mapGeminiFinishReason', () => {
  it.each([
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool-calls'],
    ['MAX_TOKENS', false, 'length'],
    ['SAFETY', false, 'content-filter'],
    ['RECITATION', false, 'content-filter'],
    ['BLOCKLIST', false, 'content-filter'],
    ['PROHIBITED_CONTENT', false, 'content-filter'],
    ['SPII', false, 'content-filter'],
    ['IMAGE_SAFETY', false, 'content-filter'],
    ['MALFORMED_FUNCTION_CALL', false, 'error'],
    ['UNEXPECTED_TOOL_CALL', true, 'error'],
    ['LANGUAGE', false, 'other'],
    ['OTHER', false, 'other'],
    ['FINISH_REASON_UNSPECIFIED', false, 'other'],
    ['A_REASON_FROM_NEXT_YEAR', true, 'other'],
  ] as const)('%s (tool calls: %s) is %s and keeps the raw value', (raw, hasToolCalls, unified) => {
    expect(mapGeminiFinishReason(raw, hasToolCalls)).toEqual({ unified, raw });
  });

  it('a missing finish reason is other with raw undefined', () => {
    expect(mapGeminiFinishReason(undefined, false)).toEqual({ unified: 'other', raw: undefined });
  });
});

describe('mapGeminiBlockReason', () => {
  it.each(['SAFETY', 'PROHIBITED_CONTENT', 'OTHER', 'NEW_REASON'])(
    'a prompt blocked for %s is a content filter',
    (raw) => {
      expect(mapGeminiBlockReason(raw)).toEqual({ unified: 'content-filter', raw });
    },
  );
});
