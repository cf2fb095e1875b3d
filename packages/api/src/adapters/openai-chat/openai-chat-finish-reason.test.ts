import { describe, expect, it } from 'vitest';
import { mapFinishReason } from './openai-chat-finish-reason.js';

describe('mapFinishReason', () => {
  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool-calls'],
    ['function_call', 'tool-calls'],
    ['content_filter', 'content-filter'],
    ['error', 'error'],
  ] as const)('maps %s to %s', (raw, unified) => {
    expect(mapFinishReason(raw)).toEqual({ unified, raw });
  });

  it.each(['model_context_window_exceeded', 'insufficient_system_resource', 'eos', ''])(
    'maps the unknown value %j to other and keeps it',
    (raw) => {
      expect(mapFinishReason(raw)).toEqual({ unified: 'other', raw });
    },
  );

  it('maps a missing value to other with raw undefined', () => {
    expect(mapFinishReason(undefined)).toEqual({ unified: 'other', raw: undefined });
  });
});
