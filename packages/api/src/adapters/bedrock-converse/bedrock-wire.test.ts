import { describe, expect, it } from 'vitest';
import {
  contentBlockDeltaEventSchema,
  converseResponseSchema,
  listFoundationModelsSchema,
  metadataEventSchema,
} from './bedrock-wire.js';

describe('Bedrock wire schemas', () => {
  it('let unknown fields through (forward compatible)', () => {
    const delta = contentBlockDeltaEventSchema.parse({
      contentBlockIndex: 2,
      delta: { citation: { title: 'x' }, text: 'hi' },
      p: 'abcdef',
    });
    expect(delta).toMatchObject({ contentBlockIndex: 2, delta: { text: 'hi', citation: { title: 'x' } }, p: 'abcdef' });
    expect(metadataEventSchema.parse({ usage: { inputTokens: 1, serverToolUsage: {} }, metrics: {} }).usage).toEqual({
      inputTokens: 1,
      serverToolUsage: {},
    });
  });

  it('reject a delta without its block index', () => {
    expect(contentBlockDeltaEventSchema.safeParse({ delta: { text: 'hi' } }).success).toBe(false);
  });

  it('accept a response with any content block shape and an empty model list', () => {
    const response = converseResponseSchema.parse({
      output: {
        message: {
          role: 'assistant',
          content: [{ image: {} }, { toolUse: { toolUseId: 't', name: 'n', input: 'not json' } }],
        },
      },
      stopReason: 'tool_use',
    });
    expect(response.output?.message?.content).toHaveLength(2);
    expect(listFoundationModelsSchema.parse({}).modelSummaries).toBeUndefined();
  });
});
