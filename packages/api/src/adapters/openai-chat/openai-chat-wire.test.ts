import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../spec/stream-event.js';
import { ChatStreamMapper } from './openai-chat-stream.js';
import {
  type ChatChunk,
  chunkSchema,
  isPlainDeltaChunk,
  isPlainUsage,
  isPlainUsageChunk,
  modelListSchema,
  parseChunk,
} from './openai-chat-wire.js';

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

describe('isPlainDeltaChunk', () => {
  const base = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', system_fingerprint: null };
  const choice = (delta: unknown, extra: Record<string, unknown> = {}) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: null, ...extra }],
  });

  // The shapes of the recorded Groq, OpenAI and DeepSeek streams.
  const plain: unknown[] = [
    choice({ role: 'assistant', content: '', refusal: null }, { usage: null }),
    { ...choice({ content: 'Int' }), usage: null, obfuscation: 'x' },
    choice({ content: null, reasoning_content: 'We' }),
    choice({ content: '.', reasoning_content: null }),
    choice({}, { finish_reason: 'stop' }),
    { ...base, choices: [] },
    { ...base, choices: [{ index: 1, delta: { content: 'second' } }, { delta: { reasoning: 'r' } }] },
    { choices: [{ delta: null }] },
  ];

  // Everything the schema would change, or the mapper reads from a field the fast check does not vouch for.
  const notPlain: unknown[] = [
    null,
    [1],
    'text',
    { ...choice({ content: 'x' }), id: 42 },
    { ...choice({ content: 'x' }), model: 7 },
    { ...choice({ content: 'x' }), error: { message: 'boom' } },
    { ...choice({ content: 'x' }), usage: { prompt_tokens: 1 } },
    { ...choice({ content: 'x' }), x_groq: { id: 'req' } },
    { ...choice({ content: 'x' }), citations: ['a'] },
    { ...choice({ content: 'x' }), search_results: [] },
    { ...base, choices: 'none' },
    { ...base, choices: [null] },
    choice({ content: 'x' }, { index: '0' }),
    choice({ content: 'x' }, { finish_reason: 3 }),
    choice({ content: 'x' }, { message: { content: 'y' } }),
    choice([{ content: 'x' }]),
    choice({ content: [{ type: 'text', text: 'x' }] }),
    choice({ content: 1 }),
    choice({ reasoning_content: 5 }),
    choice({ reasoning: {} }),
    choice({ refusal: 7 }),
    choice({ role: 1 }),
    choice({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }),
    choice({ reasoning_details: [{ type: 'reasoning.text', text: 't' }] }),
  ];

  it('accepts the hot text and reasoning deltas, and nothing the schema would change', () => {
    for (const value of plain) expect(isPlainDeltaChunk(value), JSON.stringify(value)).toBe(true);
    for (const value of notPlain) expect(isPlainDeltaChunk(value), JSON.stringify(value)).toBe(false);
  });

  it('maps an accepted chunk to the same events as the schema-parsed chunk', () => {
    const run = (parse: (value: unknown) => ChatChunk) => {
      const mapper = new ChatStreamMapper({
        providerId: 't',
        reasoningFields: ['reasoning_content', 'reasoning'],
        idSuffix: 'abcd',
      });
      const events: StreamEvent[] = [];
      for (const value of plain) mapper.push(parse(value), events);
      mapper.finish(true, events);
      return events;
    };
    expect(run((value) => value as ChatChunk)).toEqual(run((value) => chunkSchema.parse(value)));
  });

  it('parseChunk gives what the schema gives for odd chunks', () => {
    for (const value of notPlain.filter(
      (entry) => typeof entry === 'object' && entry !== null && !Array.isArray(entry) && !isPlainUsageChunk(entry),
    )) {
      const { rawUsage, ...parsed } = parseChunk(JSON.stringify(value)) ?? {};
      expect(parsed).toEqual(chunkSchema.parse(value));
      // The usage object as received rides along, for the usage event's `raw`.
      const record = value as { usage?: unknown; x_groq?: { usage?: unknown } };
      expect(rawUsage).toEqual(record.usage ?? record.x_groq?.usage ?? undefined);
    }
  });
});

describe('isPlainUsageChunk', () => {
  const base = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', system_fingerprint: null };
  const deepseekUsage = {
    prompt_tokens: 12,
    completion_tokens: 40,
    total_tokens: 52,
    prompt_tokens_details: { cached_tokens: 8 },
    completion_tokens_details: { reasoning_tokens: 30 },
    prompt_cache_hit_tokens: 8,
    prompt_cache_miss_tokens: 4,
  };
  // The usage chunks of the recorded OpenAI, DeepSeek and Groq streams, and other plain ones.
  const plain: unknown[] = [
    { ...base, choices: [], usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } },
    { ...base, choices: [], usage: deepseekUsage },
    {
      ...base,
      choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
      x_groq: { id: 'req_1', usage: { prompt_tokens: 3, completion_tokens: 4, queue_time: 0.01 } },
    },
    { ...base, choices: [], usage: { prompt_tokens: 1, prompt_tokens_details: null, completion_tokens_details: null } },
    { ...base, choices: [], usage: { ...deepseekUsage, prompt_tokens_details: { cache_write_tokens: 2 } } },
  ];
  // A usage or a rest the schema would change: zod decides.
  const notPlain: unknown[] = [
    null,
    [1],
    { ...base, usage: 'lots' },
    { ...base, usage: [1] },
    { ...base, usage: { prompt_tokens: '5' } },
    { ...base, usage: { completion_tokens: true } },
    { ...base, usage: { total_tokens: {} } },
    { ...base, usage: { prompt_cache_hit_tokens: '1' } },
    { ...base, usage: { prompt_cache_miss_tokens: [] } },
    { ...base, usage: { prompt_tokens_details: 3 } },
    { ...base, usage: { prompt_tokens_details: { cached_tokens: '3' } } },
    { ...base, usage: { prompt_tokens_details: { cache_write_tokens: null, cached_tokens: {} } } },
    { ...base, usage: { completion_tokens_details: [] } },
    { ...base, usage: { completion_tokens_details: { reasoning_tokens: 'x' } } },
    { ...base, x_groq: 'groq' },
    { ...base, x_groq: { usage: { prompt_tokens: '3' } } },
    { ...base, usage: { prompt_tokens: 1 }, error: { message: 'boom' } },
    { ...base, usage: { prompt_tokens: 1 }, citations: ['a'] },
    { ...base, usage: { prompt_tokens: 1 }, choices: [{ delta: { tool_calls: [] } }] },
    { ...base, usage: { prompt_tokens: 1 }, id: 9 },
  ];

  it('accepts usage chunks the schema passes on, and nothing it would change', () => {
    for (const value of plain) expect(isPlainUsageChunk(value), JSON.stringify(value)).toBe(true);
    for (const value of notPlain) expect(isPlainUsageChunk(value), JSON.stringify(value)).toBe(false);
    expect(isPlainUsage(undefined)).toBe(true);
    expect(isPlainUsage(null)).toBe(true);
    expect(isPlainUsage(deepseekUsage)).toBe(true);
    expect(isPlainUsage({ prompt_tokens: NaN.toString() })).toBe(false);
  });

  it('parseChunk maps an accepted usage chunk to the events (raw usage included) the schema path gives', () => {
    const run = (parse: (data: string) => ChatChunk | undefined) => {
      const mapper = new ChatStreamMapper({
        providerId: 't',
        reasoningFields: ['reasoning_content'],
        idSuffix: 'abcd',
      });
      const events: StreamEvent[] = [];
      const first = { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' } }] };
      for (const value of [first, ...plain.slice(0, 1)]) {
        const chunk = parse(JSON.stringify(value));
        if (chunk !== undefined) mapper.push(chunk, events);
      }
      mapper.finish(true, events);
      return events;
    };
    const viaSchema = (data: string): ChatChunk | undefined => {
      const value = JSON.parse(data) as { usage?: unknown; x_groq?: { usage?: unknown } };
      const parsed = chunkSchema.parse(value);
      const rawUsage = value.usage ?? value.x_groq?.usage;
      return rawUsage === undefined || rawUsage === null ? parsed : { ...parsed, rawUsage };
    };
    expect(run(parseChunk)).toEqual(run(viaSchema));
    for (const value of plain) {
      const data = JSON.stringify(value);
      const fast = parseChunk(data);
      const slow = viaSchema(data);
      const mapperOf = () => new ChatStreamMapper({ providerId: 't', reasoningFields: [], idSuffix: 'abcd' });
      const fastEvents: StreamEvent[] = [];
      const slowEvents: StreamEvent[] = [];
      const fastMapper = mapperOf();
      const slowMapper = mapperOf();
      fastMapper.push(fast as ChatChunk, fastEvents);
      slowMapper.push(slow as ChatChunk, slowEvents);
      fastMapper.finish(true, fastEvents);
      slowMapper.finish(true, slowEvents);
      expect(fastEvents, data).toEqual(slowEvents);
      expect(fast?.rawUsage, data).toEqual(slow?.rawUsage);
      expect(
        fastEvents.some((event) => event.type === 'usage'),
        data,
      ).toBe(true);
    }
  });
});
