import { describe, expect, it } from 'vitest';
import { mapAnthropicStopReason } from './anthropic-finish-reason.js';

describe('mapAnthropicStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool-calls'],
    ['pause_turn', 'pause'],
    ['refusal', 'refusal'],
  ] as const)('maps %s to %s and keeps the raw value', (raw, unified) => {
    expect(mapAnthropicStopReason(raw)).toEqual({ unified, raw });
  });

  it('maps an unknown value to other without throwing, keeping it', () => {
    expect(mapAnthropicStopReason('compaction_2027')).toEqual({ unified: 'other', raw: 'compaction_2027' });
  });

  it('maps a missing value to other with no raw value', () => {
    expect(mapAnthropicStopReason(null)).toEqual({ unified: 'other', raw: undefined });
    expect(mapAnthropicStopReason(undefined)).toEqual({ unified: 'other', raw: undefined });
  });
});
