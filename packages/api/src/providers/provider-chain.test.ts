import { FAULT_HEADER, type MockFault, type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIChatProvider } from '../adapters/openai-chat/openai-chat-provider.js';
import { isLlmError } from '../spec/llm-error.js';
import type { LlmProvider } from '../spec/provider.js';
import type { StreamEvent } from '../spec/stream-event.js';
import { createProviderChain } from './provider-chain.js';
import { helloRequest, streamOnce } from './provider-row.test.helpers.js';
import { createProviderRegistry } from './registry.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A mock upstream answering `text` (forever), with an optional fault on every request it gets. */
async function upstream(text: string) {
  const server = await startMockServer({
    script: { steps: [{ text, usage: { input: 5, output: 3 } }], repeatLast: true },
  });
  servers.push(server);
  return server;
}

function chatProvider(id: string, server: MockServer, fault?: MockFault): LlmProvider {
  return createOpenAIChatProvider({
    providerId: id,
    baseURL: `${server.url}/v1`,
    apiKey: `key-of-${id}`,
    retry: { maxRetries: 0 },
    ...(fault === undefined ? {} : { headers: { [FAULT_HEADER]: JSON.stringify(fault) } }),
  });
}

function text(events: readonly StreamEvent[]): string {
  return events.map((event) => (event.type === 'text-delta' ? event.delta : '')).join('');
}

describe('createProviderChain', () => {
  it('falls over to the next upstream, with its default model, when the first fails before answering', async () => {
    const [first, second] = [await upstream('from first'), await upstream('from second')];
    const chain = createProviderChain({
      providerId: 'mine',
      upstreams: [
        { provider: chatProvider('alpha', first, { kind: 'http_error', error: 'rate_limit' }), model: 'alpha-model' },
        { provider: chatProvider('beta', second), model: 'beta-model' },
      ],
    });
    const { events } = await streamOnce(chain, helloRequest('auto'));
    expect(text(events)).toBe('from second');
    expect(events.at(-1)?.type).toBe('message-end');
    expect(events.filter((event) => event.type === 'message-start')).toHaveLength(1);
    expect(first.requests.map((request) => request.model)).toEqual(['alpha-model']);
    expect(second.requests.map((request) => request.model)).toEqual(['beta-model']);
  });

  it.each([
    ['auth', { kind: 'http_error', error: 'auth' }],
    ['overloaded', { kind: 'http_error', error: 'overloaded' }],
    ['server', { kind: 'http_error', error: 'server' }],
    ['quota', { kind: 'http_error', error: 'quota' }],
    ['network (a reset before any byte)', { kind: 'reset', afterBytes: 0 }],
  ] as Array<[string, MockFault]>)('falls over on %s', async (_name, fault) => {
    const [first, second] = [await upstream('first'), await upstream('second')];
    const chain = createProviderChain({
      upstreams: [
        { provider: chatProvider('alpha', first, fault), model: 'a' },
        { provider: chatProvider('beta', second), model: 'b' },
      ],
    });
    const { events } = await streamOnce(chain, helloRequest('auto'));
    expect(text(events)).toBe('second');
    expect(first.requests).toHaveLength(1);
  });

  it.each([
    ['invalid_request', { kind: 'http_error', error: 'invalid_request' }],
    ['content_filter', { kind: 'http_error', error: 'invalid_request', message: 'flagged' }],
  ] as Array<[string, MockFault]>)(
    'does not fall over on %s: every upstream would refuse it alike',
    async (reason, fault) => {
      const [first, second] = [await upstream('first'), await upstream('second')];
      const refusing = chatProvider('alpha', first, fault);
      const filtered: LlmProvider =
        reason === 'content_filter'
          ? {
              id: 'alpha',
              name: 'alpha',
              createMessage: refusing.createMessage,
              listModels: refusing.listModels,
              async *streamMessage() {
                const { createLlmError } = await import('../spec/create-llm-error.js');
                yield {
                  type: 'error',
                  error: createLlmError({ reason: 'content_filter', providerId: 'alpha', message: 'blocked' }),
                };
              },
            }
          : refusing;
      const chain = createProviderChain({
        upstreams: [
          { provider: filtered, model: 'a' },
          { provider: chatProvider('beta', second), model: 'b' },
        ],
      });
      const { events } = await streamOnce(chain, helloRequest('auto'));
      const last = events.at(-1);
      expect(last?.type === 'error' ? last.error.reason : last?.type).toBe(reason);
      expect(second.requests).toHaveLength(0);
    },
  );

  it('never falls over once the first content has arrived: a mid-stream failure ends the stream', async () => {
    const [first, second] = [await upstream('a long answer that breaks'), await upstream('second')];
    const chain = createProviderChain({
      upstreams: [
        { provider: chatProvider('alpha', first, { kind: 'mid_stream_error', afterEvents: 3 }), model: 'a' },
        { provider: chatProvider('beta', second), model: 'b' },
      ],
    });
    const { events } = await streamOnce(chain, helloRequest('auto'));
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(events.at(-1)?.type).toBe('error');
    expect(second.requests).toHaveLength(0);
  });

  it('pins an upstream with <id>/<model>, then falls through the others with their defaults', async () => {
    const [first, second] = [await upstream('first'), await upstream('second')];
    const chain = createProviderChain({
      upstreams: [
        { provider: chatProvider('alpha', first), model: 'a' },
        { provider: chatProvider('beta', second, { kind: 'http_error', error: 'overloaded' }), model: 'b' },
      ],
    });
    const { events } = await streamOnce(chain, helloRequest('beta/pinned-model'));
    expect(text(events)).toBe('first');
    expect(second.requests.map((request) => request.model)).toEqual(['pinned-model']);
    expect(first.requests.map((request) => request.model)).toEqual(['a']);
  });

  it("pins by an upstream's alias, and by its own default model written in full", async () => {
    const [first, second] = [await upstream('first'), await upstream('second')];
    const chain = createProviderChain({
      upstreams: [
        { provider: chatProvider('alpha', first), model: 'a' },
        { provider: chatProvider('openrouter', second), model: 'openrouter/free', aliases: ['or'] },
      ],
    });
    expect(text((await streamOnce(chain, helloRequest('openrouter/free'))).events)).toBe('second');
    expect(text((await streamOnce(chain, helloRequest('or/meta-llama/llama-3-8b:free'))).events)).toBe('second');
    expect(second.requests.map((request) => request.model)).toEqual(['openrouter/free', 'meta-llama/llama-3-8b:free']);
    expect(first.requests).toHaveLength(0);
  });

  it('when every upstream fails, the error keeps the last reason and names each failure', async () => {
    const [first, second] = [await upstream('first'), await upstream('second')];
    const chain = createProviderChain({
      providerId: 'mine',
      upstreams: [
        { provider: chatProvider('alpha', first, { kind: 'http_error', error: 'rate_limit' }), model: 'a' },
        { provider: chatProvider('beta', second, { kind: 'http_error', error: 'auth' }), model: 'b' },
      ],
    });
    const { events } = await streamOnce(chain, helloRequest('auto'));
    const last = events.at(-1);
    if (last?.type !== 'error') throw new Error(`expected an error, got ${last?.type}`);
    expect(last.error.reason).toBe('auth');
    expect(last.error.providerId).toBe('mine');
    expect(last.error.message).toMatch(/alpha \(rate_limit\).*beta \(auth\)/);
    expect(last.error.message).not.toContain('key-of-');
    await expect(chain.createMessage(helloRequest('auto'))).rejects.toSatisfy(
      (error: unknown) => isLlmError(error) && error.reason === 'auth' && /alpha \(rate_limit\)/.test(error.message),
    );
  });

  it('createMessage falls over the same way', async () => {
    const [first, second] = [await upstream('first'), await upstream('second')];
    const chain = createProviderChain({
      upstreams: [
        { provider: chatProvider('alpha', first, { kind: 'http_error', error: 'server' }), model: 'a' },
        { provider: chatProvider('beta', second), model: 'b' },
      ],
    });
    const response = await chain.createMessage(helloRequest('auto'));
    expect(response.message.content).toEqual([{ type: 'text', text: 'second' }]);
  });

  it('a cancelled call does not fall over', async () => {
    const [first, second] = [await upstream('first'), await upstream('second')];
    const chain = createProviderChain({
      upstreams: [
        { provider: chatProvider('alpha', first, { kind: 'stall', afterEvents: 0 }), model: 'a' },
        { provider: chatProvider('beta', second), model: 'b' },
      ],
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const events: StreamEvent[] = [];
    for await (const event of chain.streamMessage(helloRequest('auto'), { signal: controller.signal }))
      events.push(event);
    const last = events.at(-1);
    expect(last?.type === 'error' ? last.error.reason : last?.type).toBe('aborted');
    expect(second.requests).toHaveLength(0);
  });

  it('refuses a chain without upstreams or a default model, and ids without a resolver', () => {
    expect(() => createProviderChain({ upstreams: [] })).toThrow(/no upstreams/);
    expect(() => createProviderChain({ upstreams: [{ provider: 'groq', model: 'm' }] })).toThrow(/resolveProvider/);
    const provider: LlmProvider = {
      id: 'x',
      name: 'x',
      createMessage: async () => Promise.reject(new Error('x')),
      streamMessage: async function* () {},
      listModels: async () => [],
    };
    expect(() => createProviderChain({ upstreams: [{ provider, model: ' ' }] })).toThrow(/no default model/);
  });
});

describe('the free provider chain row', () => {
  it('uses only the upstreams that have a key, in BoxAgnts order, and reports itself configured', async () => {
    const [groq, cerebras] = [await upstream('from groq'), await upstream('from cerebras')];
    const registry = createProviderRegistry({
      env: { GROQ_API_KEY: 'g-key', CEREBRAS_API_KEY: 'c-key' },
      providerOptions: {
        groq: {
          baseURL: `${groq.url}/openai/v1`,
          retry: { maxRetries: 0 },
          headers: { [FAULT_HEADER]: JSON.stringify({ kind: 'http_error', error: 'rate_limit' }) },
        },
        cerebras: { baseURL: `${cerebras.url}/v1`, retry: { maxRetries: 0 } },
      },
    });
    const status = registry.list().find((entry) => entry.id === 'free');
    expect(status?.configured).toBe(true);
    const { provider, model } = registry.resolve('free/auto');
    const { events } = await streamOnce(provider, helloRequest(model));
    expect(text(events)).toBe('from cerebras');
    expect(groq.requests.map((request) => request.model)).toEqual(['llama-3.3-70b-versatile']);
    expect(cerebras.requests.map((request) => request.model)).toEqual(['qwen-3-235b-a22b-instruct-2507']);
    expect((await provider.listModels()).map((entry) => entry.id)).toEqual([
      'auto',
      'groq/llama-3.3-70b-versatile',
      'cerebras/qwen-3-235b-a22b-instruct-2507',
    ]);
  });

  it('with no upstream key it is not configured, and a call says which keys would do', async () => {
    const registry = createProviderRegistry({ env: {} });
    const status = registry.list().find((entry) => entry.id === 'free');
    expect(status?.configured).toBe(false);
    expect(status?.missing[0]).toContain('groq, cerebras, google');
    const { events } = await streamOnce(registry.getProvider('free'), helloRequest('auto'));
    const last = events.at(-1);
    expect(last?.type === 'error' ? last.error.reason : last?.type).toBe('auth');
    expect(last?.type === 'error' ? last.error.message : '').toContain('configure a key for at least one of groq');
  });

  it('users configure their own chain as a row', async () => {
    const [one, two] = [await upstream('one'), await upstream('two')];
    const registry = createProviderRegistry({
      env: { DEEPSEEK_API_KEY: 'd', MISTRAL_API_KEY: 'm' },
      providerOptions: {
        deepseek: {
          baseURL: one.url,
          retry: { maxRetries: 0 },
          headers: { [FAULT_HEADER]: JSON.stringify({ kind: 'http_error', error: 'overloaded' }) },
        },
        mistral: { baseURL: `${two.url}/v1`, retry: { maxRetries: 0 } },
      },
    });
    registry.register({
      id: 'my-chain',
      name: 'My chain',
      adapter: 'provider-chain',
      apiKeyEnvVars: [],
      authStyle: 'none',
      docsURL: 'https://example.com',
      settings: {
        upstreams: [
          { provider: 'deepseek', model: 'deepseek-chat' },
          { provider: 'mistral', model: 'mistral-small-latest' },
        ],
      },
    });
    const { events } = await streamOnce(registry.getProvider('my-chain'), helloRequest('auto'));
    expect(text(events)).toBe('two');
    registry.register({
      id: 'nested',
      name: 'Nested',
      adapter: 'provider-chain',
      apiKeyEnvVars: [],
      authStyle: 'none',
      docsURL: 'https://example.com',
      settings: { upstreams: [{ provider: 'my-chain', model: 'auto' }] },
    });
    expect(registry.list().find((entry) => entry.id === 'nested')?.configured).toBe(false);
  });
});
