import { describe, expect, it } from 'vitest';
import { mapOllamaDoneReason } from './ollama-finish-reason.js';

describe('mapOllamaDoneReason', () => {
  it.each([
    ['stop', false, 'stop'],
    ['stop', true, 'tool-calls'],
    [undefined, false, 'stop'],
    [undefined, true, 'tool-calls'],
    ['length', false, 'length'],
    ['load', false, 'other'],
    ['unload', false, 'other'],
    ['brand_new', true, 'other'],
  ] as const)('%s (tool calls: %s) is %s, raw kept', (raw, hasToolCalls, unified) => {
    expect(mapOllamaDoneReason(raw, hasToolCalls)).toEqual({ unified, raw });
  });
});
