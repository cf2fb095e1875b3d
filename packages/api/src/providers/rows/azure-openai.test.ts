import { afterEach, describe, expect, it } from 'vitest';
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
} from '../provider-row.test.helpers.js';
import { createProviderRegistry } from '../registry.js';
import { resolveAdapterSettings } from '../resolve-adapter-settings.js';
import { azureOpenAIProvider } from './azure-openai.js';

afterEach(closeMocks);

describe('the azure-openai row', () => {
  it('builds the deployment URL from the resource parameter and the model, with api-version', () => {
    const settings = resolveAdapterSettings(azureOpenAIProvider, {}, 'gpt-4o-prod', [], {
      AZURE_RESOURCE_NAME: 'contoso',
    });
    expect(settings.baseURL).toBe('https://contoso.openai.azure.com/openai/deployments/gpt-4o-prod');
    expect(settings.query).toEqual({ 'api-version': '2024-10-21' });
    expect(settings.authStyle).toBe('api-key');
    const preview = resolveAdapterSettings(
      azureOpenAIProvider,
      { parameters: { resource: 'fabrikam', apiVersion: '2025-04-01-preview' } },
      'o3',
      [],
      {},
    );
    expect(preview.baseURL).toBe('https://fabrikam.openai.azure.com/openai/deployments/o3');
    expect(preview.query).toEqual({ 'api-version': '2025-04-01-preview' });
  });

  it('sends the api-key header to the deployment path with the api-version query, and parses the stream', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({
      providers: [azureOpenAIProvider],
      env: { AZURE_OPENAI_API_KEY: CANARY_KEY, AZURE_OPENAI_RESOURCE_NAME: 'contoso' },
    });
    const provider = registry.createProvider({
      provider: 'azure-openai',
      baseURL: `${mock.url}/openai/deployments/{model}`,
    });
    const { events, response } = await streamOnce(provider, helloRequest('gpt-4o-prod'));

    expectHelloResponse(events, response);
    const request = onlyRequest(mock);
    expect(request.path).toBe('/openai/deployments/gpt-4o-prod/chat/completions');
    expect(request.query).toEqual({ 'api-version': '2024-10-21' });
    expect(request.headers['api-key']).toBe(MASKED_CANARY);
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({ max_completion_tokens: 256 });
    expectNoCanary(events, response, mock.requests);
  });

  it('reports a missing resource name as an error event naming the option and variables', async () => {
    const registry = createProviderRegistry({
      providers: [azureOpenAIProvider],
      env: { AZURE_OPENAI_API_KEY: CANARY_KEY },
    });
    const { events } = await streamOnce(registry.getProvider('azure-openai'), helloRequest('gpt-4o'));
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    expect(last?.type === 'error' ? last.error.message : '').toContain(
      "pass `parameters: { resource: '…' }` or set one of the environment variables AZURE_OPENAI_RESOURCE_NAME, AZURE_RESOURCE_NAME",
    );
    expectNoCanary(events);
  });
});
