import { describe, expect, it } from 'vitest';
import {
  cohereChatResponseSchema,
  cohereContentDeltaSchema,
  cohereModelListSchema,
  cohereStreamEventSchema,
  isPlainContent,
  isPlainEvent,
} from './cohere-wire.js';

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

describe('isPlainEvent / isPlainContent', () => {
  const delta = (content: unknown) => ({ type: 'content-delta', index: 0, delta: { message: { content } } });

  it('accept the hot shapes, which the schemas pass through unchanged', () => {
    const events = [
      delta({ text: 'hi' }),
      delta({ thinking: 'hm' }),
      { type: 'message-start', id: 'm1', delta: { message: { role: 'assistant', content: [], tool_calls: [] } } },
      { type: 'content-end', index: 0 },
      { type: 'tool-plan-delta', delta: { message: { tool_plan: 'plan' } } },
      { type: 'message-end', delta: { finish_reason: 'ERROR', error: 'boom' } },
      { type: 'debug', extra: { anything: true } },
    ];
    for (const event of events) {
      expect(isPlainEvent(event), JSON.stringify(event)).toBe(true);
      expect(cohereStreamEventSchema.parse(event)).toEqual(event);
    }
    for (const content of [
      { text: 'hi' },
      { type: 'thinking', thinking: 'hm' },
      { type: 'text', text: '', extra: 1 },
    ]) {
      expect(isPlainContent(content)).toBe(true);
      expect(cohereContentDeltaSchema.parse(content)).toEqual(content);
    }
  });

  it('leave everything else to the schemas', () => {
    const events = [
      null,
      [],
      { delta: {} },
      { type: 1 },
      { type: 'message-start', id: null },
      { type: 'content-delta', index: '0' },
      { type: 'content-delta', delta: null },
      { type: 'content-delta', delta: [] },
      { type: 'content-delta', delta: { message: null } },
      { type: 'content-delta', delta: { message: { role: 1 } } },
      { type: 'tool-plan-delta', delta: { message: { tool_plan: 5 } } },
      { type: 'message-end', delta: { finish_reason: 'COMPLETE', usage: { tokens: { output_tokens: 1 } } } },
      { type: 'message-end', delta: { finish_reason: 3 } },
      { type: 'message-end', delta: { error: {} } },
    ];
    for (const event of events) expect(isPlainEvent(event), JSON.stringify(event)).toBe(false);
    for (const content of [null, [], 'text', { text: 1 }, { thinking: null }, { type: 2 }]) {
      expect(isPlainContent(content), JSON.stringify(content)).toBe(false);
    }
  });
});
