import { describe, expect, it } from 'vitest';
import { mapCohereFinishReason } from './cohere-finish-reason.js';

describe('mapCohereFinishReason', () => {
  it.each([
    ['COMPLETE', 'stop'],
    ['STOP_SEQUENCE', 'stop'],
    ['MAX_TOKENS', 'length'],
    ['ERROR_LIMIT', 'length'],
    ['TOOL_CALL', 'tool-calls'],
    ['ERROR_TOXIC', 'content-filter'],
    ['ERROR', 'error'],
    ['TIMEOUT', 'error'],
  ])('%s is %s', (raw, unified) => {
    expect(mapCohereFinishReason(raw)).toEqual({ unified, raw });
  });

  it('an unknown or missing value is other and never throws', () => {
    expect(mapCohereFinishReason('USER_CANCEL')).toEqual({ unified: 'other', raw: 'USER_CANCEL' });
    expect(mapCohereFinishReason(undefined)).toEqual({ unified: 'other', raw: undefined });
  });
});
