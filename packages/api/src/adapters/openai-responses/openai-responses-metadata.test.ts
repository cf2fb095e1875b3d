import { describe, expect, it } from 'vitest';
import { readOpenAIResponsesMetadata, withOpenAIResponsesMetadata } from './openai-responses-metadata.js';

describe('openai-responses metadata', () => {
  it('writes defined values under the protocol key and nothing when none is defined', () => {
    expect(withOpenAIResponsesMetadata({ itemId: 'rs_1', encryptedContent: undefined, refusal: true })).toEqual({
      providerMetadata: { 'openai-responses': { itemId: 'rs_1', refusal: true } },
    });
    expect(withOpenAIResponsesMetadata({ itemId: undefined })).toEqual({});
  });

  it('reads back only its own key', () => {
    const block = { providerMetadata: { anthropic: { x: 1 }, 'openai-responses': { itemId: 'msg_1' } } };
    expect(readOpenAIResponsesMetadata(block)).toEqual({ itemId: 'msg_1' });
    expect(readOpenAIResponsesMetadata({ providerMetadata: { anthropic: { itemId: 'x' } } })).toBeUndefined();
    expect(readOpenAIResponsesMetadata({})).toBeUndefined();
  });
});
