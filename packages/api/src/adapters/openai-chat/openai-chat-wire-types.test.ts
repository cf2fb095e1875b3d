import { describe, expect, it } from 'vitest';
import { modelListSchema, parseChunk } from './openai-chat-wire-types.js';

describe('parseChunk', () => {
  it('parses a chunk and keeps the fields the adapter reads', () => {
    const chunk = parseChunk(
      JSON.stringify({
        id: 'c',
        model: 'm',
        choices: [
          {
            index: 0,
            delta: {
              content: 'x',
              reasoning_content: 'r',
              tool_calls: [{ index: 0, id: 't', function: { name: 'f', arguments: '{}' } }],
            },
            finish_reason: null,
          },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 0 } },
        extra_vendor_field: { anything: true },
      }),
    );
    expect(chunk?.choices?.[0]?.delta?.tool_calls?.[0]).toEqual({
      index: 0,
      id: 't',
      function: { name: 'f', arguments: '{}' },
    });
    expect(chunk?.usage?.prompt_tokens).toBe(1);
  });

  it('is lenient: a field of the wrong type becomes undefined instead of failing the chunk', () => {
    const chunk = parseChunk(
      JSON.stringify({
        id: 42,
        choices: [
          {
            index: 0,
            delta: {
              content: 'kept',
              refusal: 7,
              tool_calls: [{ index: -1, id: null, function: { name: 5, arguments: '{}' } }],
            },
            finish_reason: 3,
          },
        ],
        usage: { prompt_tokens: 'many', completion_tokens: 2 },
      }),
    );
    expect(chunk?.id).toBeUndefined();
    expect(chunk?.choices?.[0]?.delta?.content).toBe('kept');
    expect(chunk?.choices?.[0]?.delta?.refusal).toBeUndefined();
    expect(chunk?.choices?.[0]?.finish_reason).toBeUndefined();
    expect(chunk?.choices?.[0]?.delta?.tool_calls?.[0]).toEqual({
      index: undefined,
      id: null,
      function: { name: undefined, arguments: '{}' },
    });
    expect(chunk?.usage).toEqual({ prompt_tokens: undefined, completion_tokens: 2 });
  });

  it('reads Mistral content parts and arguments sent as an object', () => {
    const chunk = parseChunk(
      JSON.stringify({
        choices: [
          {
            delta: {
              content: [
                { type: 'thinking', thinking: [{ type: 'text', text: 't' }] },
                { type: 'text', text: 'x' },
              ],
              tool_calls: [{ function: { arguments: { a: 1 } } }],
            },
          },
        ],
      }),
    );
    expect(chunk?.choices?.[0]?.delta?.content).toEqual([
      { type: 'thinking', thinking: [{ text: 't' }] },
      { type: 'text', text: 'x' },
    ]);
    expect(chunk?.choices?.[0]?.delta?.tool_calls?.[0]?.function?.arguments).toEqual({ a: 1 });
  });

  it('keeps an error object or string', () => {
    expect(parseChunk('{"error":{"message":"boom","code":500}}')?.error).toEqual({ message: 'boom', code: 500 });
    expect(parseChunk('{"error":"boom"}')?.error).toBe('boom');
  });

  it('is undefined for text that is not a JSON object', () => {
    expect(parseChunk('not json')).toBeUndefined();
    expect(parseChunk('[1,2]')).toBeUndefined();
    expect(parseChunk('"text"')).toBeUndefined();
  });
});

describe('modelListSchema', () => {
  it('reads {data: [...]} and a bare array, skipping entries without an id', () => {
    const wrapped = modelListSchema.parse({
      data: [{ id: 'a', created: 1, context_window: 8192 }, { object: 'model' }],
    });
    expect(wrapped).toEqual({ data: [{ id: 'a', created: 1, context_window: 8192 }, null] });
    expect(modelListSchema.parse([{ id: 'b', context_length: 1000 }])).toEqual([{ id: 'b', context_length: 1000 }]);
  });
});
