import { createProviderRegistry, isMissingApiKeyError, type StreamEvent } from '@boxagnts/api';
import { startMockServer } from '@boxagnts/testkit';
import { describe, expect, it } from 'vitest';
import { ACME_ADAPTER_ID, acmeProvider, plugin } from './index.js';
import { runExample } from './run-example.js';

const CANARY = 'acme-canary-key-never-shown-q9z8';

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const collected: StreamEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

describe('the Acme provider plugin, applied from outside @boxagnts/api', () => {
  it('streams a message from the testkit through its own adapter', async () => {
    const printed: string[] = [];
    const { text, configured, mock } = await runExample((delta) => printed.push(delta), CANARY);
    try {
      expect(text).toBe('Hello from Acme, through a plugin.');
      expect(printed.join('')).toBe(text);
      expect(configured).toBe(true);
      expect(mock.requests).toHaveLength(1);
      const request = mock.requests[0];
      expect(request?.path).toBe('/api/chat');
      expect(request?.headers.authorization).toBe('Bearer ***q9z8');
      expect(request?.headers['x-acme-client']).toBe('boxagnts-plugin-example');
      expect(request?.body).toMatchObject({
        model: 'acme-large',
        stream: true,
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'Say hello.' },
        ],
        options: { num_predict: 128, creativity: 0.2 },
      });
      expect(JSON.stringify(mock.requests)).not.toContain(CANARY);
    } finally {
      await mock.close();
    }
  });

  it('applies the row’s per-model override', async () => {
    const mock = await startMockServer({ script: { steps: [{ text: 'ok', usage: { input: 1, output: 1 } }] } });
    try {
      const registry = createProviderRegistry({ providers: [], env: { ACME_TOKEN: CANARY } }).use(plugin);
      const provider = registry.createProvider({ provider: 'acme', baseURL: mock.url });
      const response = await provider.createMessage({
        model: 'acme-small-2',
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(response.message.content).toEqual([{ type: 'text', text: 'ok' }]);
      expect(mock.requests[0]?.body).toMatchObject({ options: { creativity: 0 } });
    } finally {
      await mock.close();
    }
  });

  it('lists itself without its key, reports a missing key by variable name, and can be removed', async () => {
    const registry = createProviderRegistry({ providers: [], env: {} }).use(plugin);
    expect(registry.list()).toEqual([
      expect.objectContaining({ id: 'acme', adapter: ACME_ADAPTER_ID, configured: false, credentialSource: undefined }),
    ]);
    const events = await collect(registry.getProvider('acme').streamMessage({ model: 'acme-large', messages: [] }));
    const last = events.at(-1);
    expect(last?.type === 'error' && isMissingApiKeyError(last.error)).toBe(true);
    expect(last?.type === 'error' ? last.error.message : '').toContain('ACME_API_KEY, ACME_TOKEN');

    expect(registry.unregister(acmeProvider.id)).toBe(true);
    expect(registry.unregisterAdapter(ACME_ADAPTER_ID)).toBe(true);
    expect(registry.list()).toEqual([]);
  });
});
