import { describe, expect, it } from 'vitest';
import {
  cohereChatResponseSchema,
  cohereContentDeltaSchema,
  cohereModelListSchema,
  cohereStreamEventSchema,
} from './cohere-wire-types.js';

describe('Cohere wire schemas', () => {
  it('accept message-start arrays and delta objects in the same event shape', () => {
    const start = cohereStreamEventSchema.parse({
      id: 'x',
      type: 'message-start',
      delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
    });
    expect(cohereContentDeltaSchema.safeParse(start.delta?.message?.content).success).toBe(false);
    const delta = cohereStreamEventSchema.parse({
      type: 'content-delta',
      index: 0,
      delta: { message: { content: { text: 'hi' } } },
      logprobs: {},
    });
    expect(cohereContentDeltaSchema.parse(delta.delta?.message?.content)).toEqual({ text: 'hi' });
  });

  it('require an event type', () => {
    expect(cohereStreamEventSchema.safeParse({ delta: {} }).success).toBe(false);
  });

  it('accept responses and model lists with extra fields', () => {
    expect(
      cohereChatResponseSchema.parse({ id: 'r', message: { role: 'assistant', citations: [{}] }, extra: 1 }).id,
    ).toBe('r');
    expect(
      cohereModelListSchema.parse({
        models: [{ name: 'command-a-03-2025', features: ['tools'] }],
        next_page_token: null,
      }).models?.[0]?.name,
    ).toBe('command-a-03-2025');
  });
});
