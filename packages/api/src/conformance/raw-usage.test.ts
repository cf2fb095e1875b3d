import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../index.js';
import { ADAPTERS } from '../test/conformance-adapters.js';

// The message-end event (and each usage event that follows a vendor usage object) carries `raw`,
// the vendor's usage object as received, named in the vendor's own words.

const vendorKeys: Record<string, string> = {
  'anthropic-messages': 'input_tokens',
  'openai-chat': 'prompt_tokens',
  'openai-responses': 'input_tokens',
  gemini: 'promptTokenCount',
  'bedrock-converse': 'inputTokens',
  'cohere-v2': 'tokens',
  ollama: 'prompt_eval_count',
};

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({
    script: { steps: [{ text: 'The port is 8000.', usage: { input: 60, output: 6 } }], repeatLast: true },
  });
});

afterAll(async () => {
  await mock.close();
});

describe.each(ADAPTERS)('$name: raw usage', (adapter) => {
  it('message-end carries the vendor usage object as received', async () => {
    const events: StreamEvent[] = [];
    for await (const event of adapter
      .create(mock.url)
      .streamMessage({ model: 'raw-model', maxOutputTokens: 64, messages: [{ role: 'user', content: 'Hi' }] })) {
      events.push(event);
    }
    const end = events.at(-1);
    expect(end?.type).toBe('message-end');
    if (end?.type !== 'message-end') return;
    expect(end.usage.input.total).toBe(60);
    const key = vendorKeys[adapter.name] ?? 'missing';
    expect(end.raw).toBeTypeOf('object');
    expect(Object.keys(end.raw as object)).toContain(key);
    for (const event of events) {
      if (event.type === 'usage' && event.raw !== undefined) expect(event.raw).toBeTypeOf('object');
    }
  });
});
