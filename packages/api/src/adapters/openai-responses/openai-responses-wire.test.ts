import { describe, expect, it } from 'vitest';
import {
  openaiModelListSchema,
  openaiResponsesOutputItemSchema,
  openaiResponsesResponseSchema,
} from './openai-responses-wire.js';

describe('openai-responses wire schemas', () => {
  it('are lenient: a field of the wrong type becomes undefined, unknown fields pass', () => {
    const response = openaiResponsesResponseSchema.parse({
      id: 42,
      status: 'completed',
      usage: { input_tokens: 'many', output_tokens: 3 },
      incomplete_details: 'odd',
      extra: true,
    });
    expect(response).toMatchObject({ id: undefined, status: 'completed', incomplete_details: undefined, extra: true });
    expect(response.usage).toMatchObject({ input_tokens: undefined, output_tokens: 3 });
  });

  it('reads output items of every kind', () => {
    expect(
      openaiResponsesOutputItemSchema.parse({
        type: 'reasoning',
        id: 'rs',
        summary: [{ type: 'summary_text', text: 'a' }],
        encrypted_content: null,
      }),
    ).toMatchObject({ type: 'reasoning', id: 'rs', summary: [{ text: 'a' }], encrypted_content: null });
    expect(openaiResponsesOutputItemSchema.parse({ type: 7 }).type).toBe('unknown');
  });

  it('keeps a model list readable when data is broken', () => {
    expect(openaiModelListSchema.parse({ data: 'nope' }).data).toEqual([]);
  });
});
