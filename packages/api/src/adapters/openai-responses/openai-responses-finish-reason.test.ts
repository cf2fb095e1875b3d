import { describe, expect, it } from 'vitest';
import { mapOpenAIResponsesFinishReason } from './openai-responses-finish-reason.js';

const base = { incompleteReason: undefined, hasToolCalls: false, hasRefusal: false };

describe('mapOpenAIResponsesFinishReason', () => {
  it.each([
    [
      { ...base, status: 'completed' },
      { unified: 'stop', raw: 'completed' },
    ],
    [
      { ...base, status: 'completed', hasToolCalls: true },
      { unified: 'tool-calls', raw: 'completed' },
    ],
    [
      { ...base, status: 'completed', hasToolCalls: true, hasRefusal: true },
      { unified: 'tool-calls', raw: 'completed' },
    ],
    [
      { ...base, status: 'completed', hasRefusal: true },
      { unified: 'refusal', raw: 'completed' },
    ],
    [
      { ...base, status: 'incomplete', incompleteReason: 'max_output_tokens' },
      { unified: 'length', raw: 'max_output_tokens' },
    ],
    [
      { ...base, status: 'incomplete', incompleteReason: 'content_filter' },
      { unified: 'content-filter', raw: 'content_filter' },
    ],
    [
      { ...base, status: 'incomplete', incompleteReason: 'brand_new' },
      { unified: 'other', raw: 'brand_new' },
    ],
    [
      { ...base, status: 'incomplete' },
      { unified: 'other', raw: 'incomplete' },
    ],
    [
      { ...base, status: 'failed' },
      { unified: 'error', raw: 'failed' },
    ],
    [
      { ...base, status: 'cancelled' },
      { unified: 'other', raw: 'cancelled' },
    ],
    [
      { ...base, status: undefined },
      { unified: 'other', raw: undefined },
    ],
  ])('%j → %j', (outcome, expected) => {
    expect(mapOpenAIResponsesFinishReason(outcome)).toEqual(expected);
  });
});
