import { describe, expect, it } from 'vitest';
import { mapBedrockStopReason } from './bedrock-finish-reason.js';

describe('mapBedrockStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['tool_use', 'tool-calls'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['guardrail_intervened', 'content-filter'],
    ['content_filtered', 'content-filter'],
    ['malformed_model_output', 'error'],
    ['malformed_tool_use', 'error'],
  ])('%s is %s', (raw, unified) => {
    expect(mapBedrockStopReason(raw)).toEqual({ unified, raw });
  });

  it('an unknown or missing value is other and never throws', () => {
    expect(mapBedrockStopReason('paused_for_reasons')).toEqual({ unified: 'other', raw: 'paused_for_reasons' });
    expect(mapBedrockStopReason(undefined)).toEqual({ unified: 'other', raw: undefined });
  });
});
