import { createProviderRegistry } from '@boxagnts/api';
import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { plugin } from './plugin.js';

/** What one run of the example produced. */
export interface ExampleResult {
  /** The streamed answer. */
  text: string;
  /** The configured state the registry reports for `acme` (never the key). */
  configured: boolean;
  /** The mock server, still open, so a test can look at what was sent; close it when done. */
  mock: MockServer;
}

/**
 * Starts the testkit mock on loopback, applies the plugin to a fresh registry, resolves
 * `acme/acme-large` and streams one answer through the plugin's adapter, printing it as it arrives.
 */
export async function runExample(print: (text: string) => void, apiKey = 'acme-demo-key-0000'): Promise<ExampleResult> {
  const mock = await startMockServer({
    script: { steps: [{ text: 'Hello from Acme, through a plugin.', usage: { input: 14, output: 8 } }] },
  });
  const registry = createProviderRegistry({
    env: { ACME_API_KEY: apiKey },
    providerOptions: { acme: { baseURL: mock.url } },
  }).use(plugin);
  const { provider, model } = registry.resolve('acme/acme-large');
  let text = '';
  for await (const event of provider.streamMessage({
    model,
    system: 'You are terse.',
    maxOutputTokens: 128,
    messages: [{ role: 'user', content: 'Say hello.' }],
  })) {
    if (event.type === 'text-delta') {
      text += event.delta;
      print(event.delta);
    }
    if (event.type === 'error') throw event.error;
  }
  const configured = registry.list().find((status) => status.id === 'acme')?.configured === true;
  return { text, configured, mock };
}
