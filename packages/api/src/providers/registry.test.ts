import { startMockServer } from '@boxagnts/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIChatProvider } from '../adapters/openai-chat/openai-chat-provider.js';
import type { AdapterSettings } from '../shared/adapter-settings.js';
import { isMissingApiKeyError } from '../spec/llm-error-classes.js';
import { BUILTIN_PROVIDERS } from './builtin-providers.js';
import { isProviderConfigurationError } from './provider-configuration-error.js';
import type { ProviderEntry } from './provider-entry.js';
import {
  CANARY_KEY,
  closeMocks,
  expectHelloResponse,
  expectNoCanary,
  helloRequest,
  MASKED_CANARY,
  onlyRequest,
  startHelloMock,
  streamOnce,
} from './provider-row.test.helpers.js';
import { createProviderRegistry, type ProviderPlugin } from './registry.js';

afterEach(closeMocks);

/** A row served by a third-party adapter that records the settings it was given. */
function recordingRow(id = 'acme'): ProviderEntry {
  return {
    id,
    name: 'Acme',
    adapter: 'acme:chat',
    baseURL: 'https://api.acme.test/v1',
    apiKeyEnvVars: ['ACME_API_KEY', 'ACME_TOKEN'],
    authStyle: 'bearer',
    docsURL: 'https://acme.test/docs',
    settings: { flavour: 'plain' },
  };
}

function thrown(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('registering rows', () => {
  it('adds, refuses duplicates, replaces on request, and removes rows', () => {
    const registry = createProviderRegistry({ providers: [], env: {} });
    registry.register(recordingRow());
    expect(registry.get('acme')?.name).toBe('Acme');
    const duplicate = thrown(() => registry.register(recordingRow()));
    expect(isProviderConfigurationError(duplicate)).toBe(true);
    expect(duplicate.message).toContain('A provider "acme" is already registered');
    registry.register({ ...recordingRow(), name: 'Acme 2' }, { replace: true });
    expect(registry.get('acme')?.name).toBe('Acme 2');
    expect(registry.unregister('acme')).toBe(true);
    expect(registry.unregister('acme')).toBe(false);
    expect(thrown(() => registry.getProvider('acme')).message).toContain('Unknown provider "acme"');
  });

  it('refuses rows with a bad id or an adapter id that is neither built in nor namespaced', () => {
    const registry = createProviderRegistry({ providers: [], env: {} });
    expect(thrown(() => registry.register({ ...recordingRow(), id: 'Acme Corp' })).message).toContain(
      '`id` must be lower-case',
    );
    const untyped = { ...recordingRow(), adapter: 'acmechat' } as unknown as ProviderEntry;
    expect(thrown(() => registry.register(untyped)).message).toContain('neither a built-in adapter');
  });

  it('starts with every built-in row, ids unique', () => {
    const ids = createProviderRegistry({ env: {} })
      .list()
      .map((status) => status.id);
    expect(ids).toEqual(BUILTIN_PROVIDERS.map((entry) => entry.id));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('third-party adapters and plugins', () => {
  it('builds the provider with a registered adapter factory, passing the row and the options', async () => {
    const received: (AdapterSettings & Record<string, unknown>)[] = [];
    const registry = createProviderRegistry({ providers: [recordingRow()], env: { ACME_TOKEN: CANARY_KEY } });
    registry.registerAdapter('acme:chat', (settings) => {
      received.push(settings);
      return createOpenAIChatProvider(settings);
    });
    const mock = await startHelloMock();
    const provider = registry.createProvider({
      provider: 'acme',
      baseURL: `${mock.url}/v1`,
      headers: { 'x-trace': '1' },
    });
    const { events, response } = await streamOnce(provider, helloRequest('acme-large'));

    expectHelloResponse(events, response);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      providerId: 'acme',
      providerName: 'Acme',
      apiKeyEnvVars: ['ACME_API_KEY', 'ACME_TOKEN'],
      baseURL: `${mock.url}/v1`,
      headers: { 'x-trace': '1' },
      flavour: 'plain',
    });
    expect(onlyRequest(mock).headers.authorization).toBe(`Bearer ${MASKED_CANARY}`);
    // The adapter is handed the registry's environment to read the key from when it sends a request.
    expect(received[0]?.env).toEqual({ ACME_TOKEN: CANARY_KEY });
    expect(received[0]?.apiKey).toBeUndefined();
    expectNoCanary(events, response, mock.requests);
  });

  it('refuses adapter ids without a namespace, and fails clearly once an adapter is removed', async () => {
    const registry = createProviderRegistry({ providers: [recordingRow()], env: { ACME_API_KEY: CANARY_KEY } });
    expect(thrown(() => registry.registerAdapter('chat' as 'x:y', createOpenAIChatProvider)).message).toContain(
      'must contain ":"',
    );
    registry.registerAdapter('acme:chat', createOpenAIChatProvider);
    expect(registry.unregisterAdapter('acme:chat')).toBe(true);
    const { events } = await streamOnce(registry.getProvider('acme'), helloRequest('acme-large'));
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    expect(last?.type === 'error' ? last.error.message : '').toContain(
      'uses the adapter "acme:chat", which is not registered',
    );
    await expect(registry.getProvider('acme').createMessage(helloRequest('m'))).rejects.toSatisfy(
      isProviderConfigurationError,
    );
  });

  it('applies plugins and chains', () => {
    const plugin: ProviderPlugin = (target) => {
      target.registerAdapter('acme:chat', createOpenAIChatProvider);
      target.register(recordingRow('acme-one'));
    };
    const registry = createProviderRegistry({ providers: [], env: {} })
      .use(plugin)
      .use((target) => {
        target.register(recordingRow('acme-two'));
      });
    expect(registry.list().map((status) => status.id)).toEqual(['acme-one', 'acme-two']);
  });
});

describe('the configured state', () => {
  it('names the variable found but never the key, in the listing and in errors', async () => {
    const registry = createProviderRegistry({
      env: { DEEPSEEK_API_KEY: CANARY_KEY, GOOGLE_API_KEY: CANARY_KEY, AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE' },
    });
    registry.configure('mistral', { apiKey: CANARY_KEY });
    const statuses = registry.list();
    const byId = new Map(statuses.map((status) => [status.id, status]));

    expect(byId.get('deepseek')).toMatchObject({
      configured: true,
      credentialSource: 'environment',
      credentialVariables: ['DEEPSEEK_API_KEY'],
      missing: [],
    });
    expect(byId.get('google')).toMatchObject({ configured: true, credentialVariables: ['GOOGLE_API_KEY'] });
    expect(byId.get('mistral')).toMatchObject({
      configured: true,
      credentialSource: 'option',
      credentialVariables: [],
    });
    expect(byId.get('anthropic')).toMatchObject({
      configured: false,
      credentialSource: undefined,
      missing: ['an API key: ANTHROPIC_API_KEY'],
    });
    expect(byId.get('amazon-bedrock')).toMatchObject({
      configured: false,
      missing: [
        'an API key: AWS_BEARER_TOKEN_BEDROCK or AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY',
        'parameter region',
      ],
    });
    expect(byId.get('lmstudio')).toMatchObject({ configured: true, credentialSource: 'not-needed' });
    expect(JSON.stringify(statuses)).not.toContain(CANARY_KEY);
    expect(JSON.stringify(statuses)).not.toContain(CANARY_KEY.slice(0, 12));

    const { events } = await streamOnce(registry.getProvider('anthropic'), helloRequest('claude-sonnet-4-6'));
    expectNoCanary(events, statuses);
  });

  it('reports a missing key as a typed error naming every variable checked', async () => {
    const registry = createProviderRegistry({ env: {} });
    const { events } = await streamOnce(registry.getProvider('google'), helloRequest('gemini-2.5-flash'));
    const last = events.at(-1);
    const error = last?.type === 'error' ? last.error : undefined;
    expect(isMissingApiKeyError(error)).toBe(true);
    expect(error?.message).toBe(
      'No API key for provider "google": pass the `apiKey` option or set one of the environment variables GEMINI_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, GOOGLE_API_KEY.',
    );
  });
});

describe('resolving provider/model', () => {
  it('splits at the first slash, keeping vendor prefixes in the model id, and caches the provider', () => {
    const registry = createProviderRegistry({ providers: [recordingRow('gateway')], env: {} });
    const resolved = registry.resolve('gateway/anthropic/claude-sonnet-4.5');
    expect(resolved.model).toBe('anthropic/claude-sonnet-4.5');
    expect(resolved.entry.id).toBe('gateway');
    expect(resolved.provider.id).toBe('gateway');
    expect(registry.resolve('gateway/x').provider).toBe(resolved.provider);
    expect(thrown(() => registry.resolve('gateway/')).message).toContain('names no model');
  });

  it('resolves bare model names with the default provider, else the catalogue of configured providers', () => {
    const withDefault = createProviderRegistry({ env: {}, defaultProvider: 'deepseek' });
    expect(withDefault.resolve('deepseek-chat')).toMatchObject({ model: 'deepseek-chat', entry: { id: 'deepseek' } });

    // The shipped catalogue lists claude-sonnet-4-5 under anthropic (and resellers) and gpt-5 under openai.
    const registry = createProviderRegistry({ env: { OPENAI_API_KEY: CANARY_KEY } });
    expect(registry.resolve('gpt-5').entry.id).toBe('openai');
    expect(registry.resolve('gpt-5-2025-08-07').entry.id).toBe('openai');
    // Listed for anthropic, but anthropic has no key here: not chosen.
    const error = thrown(() => registry.resolve('claude-sonnet-4-5'));
    expect(error.message).toBe(
      'Cannot tell which provider serves "claude-sonnet-4-5": write "provider/claude-sonnet-4-5" (e.g. "openai/claude-sonnet-4-5"), set the registry\'s defaultProvider, or configure a provider whose catalogue lists the model.',
    );
    expectNoCanary(error);
  });
});

describe('provider behaviour from the row', () => {
  it('applies a model override and its default temperature only to matching models', async () => {
    const mock = await startHelloMock({
      steps: [
        { text: 'Hello from the mock.', usage: { input: 1, output: 1 } },
        { text: 'Hello from the mock.', usage: { input: 1, output: 1 } },
        { text: 'Hello from the mock.', usage: { input: 1, output: 1 } },
      ],
    });
    const row: ProviderEntry = {
      id: 'tuned',
      name: 'Tuned',
      adapter: 'openai-chat',
      baseURL: `${mock.url}/v1`,
      apiKeyEnvVars: [],
      authStyle: 'none',
      docsURL: 'https://tuned.test',
      defaultTemperature: 0.3,
      settings: { compat: { maxTokensField: 'max_tokens' } },
      modelOverrides: [
        { match: 'kimi-*', defaultTemperature: 0.6, settings: { compat: { supportsStreamOptions: false } } },
      ],
    };
    const provider = createProviderRegistry({ providers: [row], env: {} }).getProvider('tuned');
    await streamOnce(provider, helloRequest('kimi-k2'));
    await streamOnce(provider, helloRequest('other'));
    await streamOnce(provider, helloRequest('kimi-k2', { temperature: 1 }));
    const bodies = mock.requests.map((request) => request.body as Record<string, unknown>);
    expect(bodies.map((body) => body.temperature)).toEqual([0.6, 0.3, 1]);
    expect(bodies.map((body) => body.stream_options === undefined)).toEqual([true, false, true]);
    expect(bodies.map((body) => body.max_tokens)).toEqual([256, 256, 256]);
    expect(mock.requests.every((request) => request.headers.authorization === undefined)).toBe(true);
  });

  it('refuses unknown regions and parameters when the provider is created', () => {
    const registry = createProviderRegistry({ env: {} });
    expect(thrown(() => registry.createProvider({ provider: 'ollama', region: 'mars' })).message).toBe(
      'Provider "ollama" has no region "mars"; it has local, cloud.',
    );
    expect(thrown(() => registry.createProvider({ provider: 'anthropic', region: 'eu' })).message).toContain(
      'has no regional endpoints',
    );
    expect(thrown(() => registry.createProvider({ provider: 'vertex', parameters: { projekt: 'p' } })).message).toBe(
      'Provider "vertex" has no parameter "projekt"; it takes project, location.',
    );
  });

  it('makes a new provider per createProvider call and one cached provider per id', () => {
    const registry = createProviderRegistry({ env: {} });
    expect(registry.getProvider('deepseek')).toBe(registry.getProvider('deepseek'));
    expect(registry.createProvider({ provider: 'deepseek' })).not.toBe(
      registry.createProvider({ provider: 'deepseek' }),
    );
    const cached = registry.getProvider('deepseek');
    registry.configure('deepseek', { baseURL: 'http://127.0.0.1:9/v1' });
    expect(registry.getProvider('deepseek')).not.toBe(cached);
  });
});

describe('listModels', () => {
  it('asks the vendor endpoint first', async () => {
    const mock = await startMockServer({ models: ['deepseek-chat', 'deepseek-reasoner'] });
    try {
      const registry = createProviderRegistry({
        env: { DEEPSEEK_API_KEY: CANARY_KEY },
        catalogue: { listModels: () => [{ id: 'from-catalogue' }], hasModel: () => false },
      });
      const models = await registry.createProvider({ provider: 'deepseek', baseURL: mock.url }).listModels();
      expect(models.map((model) => model.id)).toEqual(['deepseek-chat', 'deepseek-reasoner']);
      expect(mock.requests[0]?.path).toBe('/models');
      expect(mock.requests[0]?.headers.authorization).toBe(`Bearer ${MASKED_CANARY}`);
    } finally {
      await mock.close();
    }
  });

  it('falls back to the catalogue when the vendor fails, and rethrows when the catalogue has nothing', async () => {
    // A port nothing listens on any more: the list request fails with a network error.
    const closed = await startMockServer({});
    await closed.close();
    const rows: Record<string, string[]> = { deepseek: ['deepseek-v4-flash'] };
    const registry = createProviderRegistry({
      env: { DEEPSEEK_API_KEY: CANARY_KEY },
      catalogue: {
        listModels: (entry) => (rows[entry.id] ?? []).map((model) => ({ id: model })),
        hasModel: () => false,
      },
    });
    const models = await registry
      .createProvider({ provider: 'deepseek', baseURL: closed.url, retry: { maxRetries: 0 } })
      .listModels();
    expect(models).toEqual([{ id: 'deepseek-v4-flash' }]);

    // No key for mistral and no catalogue rows: the vendor's error comes through.
    const failure = await registry
      .getProvider('mistral')
      .listModels()
      .catch((error: unknown) => error);
    expect(isMissingApiKeyError(failure)).toBe(true);
    expectNoCanary(failure, models);
  });

  it('reads the shipped catalogue for rows without a usable list endpoint', async () => {
    const models = await createProviderRegistry({ env: {} }).getProvider('azure-openai').listModels();
    expect(models.length).toBeGreaterThan(10);
    expect(models.map((model) => model.id)).toContain('gpt-4o');
    expect(models.find((model) => model.id === 'gpt-4o')?.contextWindow).toBeGreaterThan(0);
  });
});
