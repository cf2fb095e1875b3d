import { describe, expect, it } from 'vitest';
import {
  isPlainResponsesOutputItem,
  isPlainResponsesResponse,
  isPlainResponsesUsage,
  openaiModelListSchema,
  openaiResponsesOutputItemSchema,
  openaiResponsesResponseSchema,
  readResponsesOutputItem,
  readResponsesResponse,
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

describe('structural checks of the once-per-item and once-per-response events', () => {
  const usage = {
    input_tokens: 30,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 90,
    output_tokens_details: { reasoning_tokens: 12 },
    total_tokens: 120,
  };
  const plainResponses = [
    { id: 'resp_1', object: 'response', model: 'gpt', status: 'in_progress', output: [], usage: null, error: null },
    { id: 'resp_1', model: 'gpt', status: 'completed', usage, incomplete_details: null, tools: [] },
    { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
  ];
  const oddResponses = [
    null,
    [],
    { id: 1 },
    { model: null },
    { status: 3 },
    { error: { message: 'boom' } },
    { incomplete_details: 'x' },
    { incomplete_details: { reason: 5 } },
    { usage: 'lots' },
    { usage: { input_tokens: '3' } },
    { usage: { input_tokens_details: [] } },
    { usage: { input_tokens_details: { cached_tokens: null } } },
    { usage: { output_tokens_details: { reasoning_tokens: '1' } } },
  ];
  const plainItems = [
    { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [], phase: null },
    { id: 'msg_1', type: 'message', content: [{ type: 'output_text', text: 'Hi', annotations: [] }] },
    { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 't' }], encrypted_content: null },
    { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
    { type: 'custom_tool_call', input: 'x' },
  ];
  const oddItems = [
    null,
    'item',
    {},
    { type: 1 },
    { type: 'message', id: null },
    { type: 'message', role: 7 },
    { type: 'message', phase: 1 },
    { type: 'message', content: 'text' },
    { type: 'message', content: [null] },
    { type: 'message', content: [{ text: 1 }] },
    { type: 'message', content: [{ refusal: {} }] },
    { type: 'reasoning', summary: {} },
    { type: 'reasoning', encrypted_content: 4 },
    { type: 'function_call', arguments: {} },
    { type: 'function_call', call_id: null },
    { type: 'custom_tool_call', input: 1 },
  ];

  it('vouch only for values the schemas pass on unchanged, and the readers agree with the schemas', () => {
    for (const value of plainResponses) {
      expect(isPlainResponsesResponse(value), JSON.stringify(value)).toBe(true);
      expect(openaiResponsesResponseSchema.parse(value)).toEqual(value);
      expect(readResponsesResponse(value)).toBe(value);
    }
    for (const value of oddResponses) {
      expect(isPlainResponsesResponse(value), JSON.stringify(value)).toBe(false);
      const parsed = openaiResponsesResponseSchema.safeParse(value);
      expect(readResponsesResponse(value)).toEqual(parsed.success ? parsed.data : undefined);
    }
    for (const value of plainItems) {
      expect(isPlainResponsesOutputItem(value), JSON.stringify(value)).toBe(true);
      expect(openaiResponsesOutputItemSchema.parse(value)).toEqual(value);
      expect(readResponsesOutputItem(value)).toBe(value);
    }
    for (const value of oddItems) {
      expect(isPlainResponsesOutputItem(value), JSON.stringify(value)).toBe(false);
      const parsed = openaiResponsesOutputItemSchema.safeParse(value);
      expect(readResponsesOutputItem(value)).toEqual(parsed.success ? parsed.data : undefined);
    }
    expect(isPlainResponsesUsage(usage)).toBe(true);
    expect(isPlainResponsesUsage(null)).toBe(false);
  });
});
