import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isMissingApiKeyError } from '../../spec/llm-error-classes.js';
import { collectEvents } from './openai-responses.test-helpers.js';
import { createOpenAIResponsesProvider, type OpenAIResponsesSettings } from './openai-responses-provider.js';

let mock: MockServer;
const request = { model: 'gpt-test', messages: [{ role: 'user' as const, content: 'hi' }] };

beforeAll(async () => {
  mock = await startMockServer();
});

afterAll(async () => {
  await mock.close();
});

beforeEach(() => {
  mock.setScript({ steps: [{ text: 'ok' }], repeatLast: true });
  mock.clearRequests();
});

function provider(settings: OpenAIResponsesSettings) {
  return createOpenAIResponsesProvider({ baseURL: `${mock.url}/v1`, retry: { maxRetries: 0 }, ...settings });
}

async function headersOf(settings: OpenAIResponsesSettings, callHeaders?: Record<string, string>) {
  const events = [];
  for await (const event of provider(settings).streamMessage(
    request,
    callHeaders === undefined ? {} : { headers: callHeaders },
  )) {
    events.push(event);
  }
  expect(events.at(-1)?.type).toBe('message-end');
  return mock.requests.at(-1)?.headers ?? {};
}

describe('createOpenAIResponsesProvider', () => {
  it('has the protocol id and a name by default, and the configured ones otherwise', () => {
    expect(createOpenAIResponsesProvider()).toMatchObject({ id: 'openai-responses', name: 'OpenAI Responses' });
    expect(createOpenAIResponsesProvider({ providerId: 'azure', providerName: 'Azure OpenAI' })).toMatchObject({
      id: 'azure',
      name: 'Azure OpenAI',
    });
  });

  it('sends the key as a bearer token to {baseURL}/responses, with settings and per-call headers', async () => {
    const headers = await headersOf({ apiKey: 'sk-bearer-key-1111', headers: { 'x-team': 'blue' } }, { 'x-call': '1' });
    expect(headers).toMatchObject({ authorization: 'Bearer ***1111', 'x-team': 'blue', 'x-call': '1' });
    expect(headers).not.toHaveProperty('api-key');
    expect(mock.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/responses' });
  });

  it('sends the key in api-key for Azure, with the api-version query', async () => {
    const headers = await headersOf({
      apiKey: 'azure-key-abcd2222',
      authStyle: 'api-key',
      query: { 'api-version': 'preview' },
    });
    expect(headers['api-key']).toBe('***2222');
    expect(headers).not.toHaveProperty('authorization');
    expect(mock.requests.at(-1)?.query).toEqual({ 'api-version': 'preview' });
  });

  it('sends no credentials with noApiKey', async () => {
    const headers = await headersOf({ noApiKey: true });
    expect(headers).not.toHaveProperty('authorization');
    expect(headers).not.toHaveProperty('api-key');
  });

  it('reads the key from the injected environment when the request is made, trying the names in order', async () => {
    const env: Record<string, string | undefined> = {};
    const lazy = provider({ env, apiKeyEnvVars: ['MY_KEY', 'OTHER_KEY'] });
    env.OTHER_KEY = 'sk-from-env-3333';
    await collectEvents(lazy, request);
    expect(mock.requests.at(-1)?.headers.authorization).toBe('Bearer ***3333');
  });

  it('fails with a MissingApiKeyError, before any request, when no key is found', async () => {
    const missing = provider({ env: {} });
    const events = await collectEvents(missing, request);
    expect(events).toHaveLength(1);
    const last = events[0];
    expect(last?.type === 'error' && isMissingApiKeyError(last.error)).toBe(true);
    await expect(missing.listModels()).rejects.toSatisfy(isMissingApiKeyError);
    expect(mock.requests).toHaveLength(0);
  });

  describe('ambient OPENAI_* variables', () => {
    const saved = { ...process.env };
    afterEach(() => {
      for (const name of ['OPENAI_CUSTOM_HEADERS', 'OPENAI_ORG_ID', 'OPENAI_PROJECT_ID', 'OPENAI_BASE_URL']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    });

    it('are not sent to the configured server', async () => {
      process.env.OPENAI_CUSTOM_HEADERS = 'X-Gateway-Token: secret\nX-Other: 1';
      process.env.OPENAI_ORG_ID = 'org-ambient';
      process.env.OPENAI_PROJECT_ID = 'proj-ambient';
      process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1';
      const headers = await headersOf({ apiKey: 'sk-bearer-key-4444', headers: { 'X-Other': 'mine' } });
      expect(headers).not.toHaveProperty('x-gateway-token');
      expect(headers).not.toHaveProperty('openai-organization');
      expect(headers).not.toHaveProperty('openai-project');
      expect(headers['x-other']).toBe('mine');
    });
  });

  it('lists models with ids and creation dates', async () => {
    const models = await provider({ apiKey: 'sk-bearer-key-5555' }).listModels();
    expect(models.length).toBeGreaterThan(0);
    expect(models[0]?.id).toEqual(expect.any(String));
    expect(mock.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models' });
  });
});
