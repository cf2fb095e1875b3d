import { describe, expect, it } from 'vitest';
import { ollamaChatResponseSchema, ollamaTagsSchema } from './ollama-wire.js';

describe('ollamaChatResponseSchema', () => {
  it('keeps unknown fields and arguments of any type', () => {
    const parsed = ollamaChatResponseSchema.parse({
      model: 'm',
      message: {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'f', arguments: 'text' } }],
        images: null,
      },
      done: false,
      context: [1, 2],
    });
    expect(parsed.message?.tool_calls?.[0]?.function.arguments).toBe('text');
    expect((parsed as Record<string, unknown>).context).toEqual([1, 2]);
  });

  it('rejects a tool call without a name', () => {
    expect(ollamaChatResponseSchema.safeParse({ message: { tool_calls: [{ function: {} }] } }).success).toBe(false);
  });
});

describe('ollamaTagsSchema', () => {
  it('reads model names', () => {
    expect(ollamaTagsSchema.parse({ models: [{ name: 'llama3.2:latest', size: 1 }] }).models?.[0]?.name).toBe(
      'llama3.2:latest',
    );
  });
});
