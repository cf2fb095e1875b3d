import type { ProviderEntry } from '../provider-entry.js';

/**
 * Azure OpenAI over Chat Completions on a deployment URL:
 * `https://{resource}.openai.azure.com/openai/deployments/{deployment}/chat/completions?api-version=…`,
 * key in the `api-key` header. The model id of a request is the deployment name. `2024-10-21` is the
 * latest GA data-plane inference version the REST reference lists; newer previews are set with the
 * `apiVersion` parameter or `AZURE_OPENAI_API_VERSION`. Deployments cannot be listed with the key,
 * so `listModels()` reads the catalogue. Entra ID tokens: pass `headers: {authorization: 'Bearer …'}`
 * and `settings: {authStyle: 'none'}` (not tested here).
 *
 * @see https://learn.microsoft.com/en-us/azure/ai-services/openai/reference
 */
export const azureOpenAIProvider: ProviderEntry = {
  id: 'azure-openai',
  name: 'Azure OpenAI',
  adapter: 'openai-chat',
  baseURL: 'https://{resource}.openai.azure.com/openai/deployments/{model}',
  parameters: {
    resource: {
      envVars: ['AZURE_OPENAI_RESOURCE_NAME', 'AZURE_RESOURCE_NAME'],
      description: 'the Azure OpenAI resource name, the first label of https://<resource>.openai.azure.com',
    },
    apiVersion: {
      envVars: ['AZURE_OPENAI_API_VERSION', 'OPENAI_API_VERSION'],
      default: '2024-10-21',
      description: 'the api-version query parameter',
    },
  },
  configure: ({ parameters }) => ({ query: { 'api-version': parameters.apiVersion ?? '2024-10-21' } }),
  apiKeyEnvVars: ['AZURE_OPENAI_API_KEY', 'AZURE_API_KEY'],
  authStyle: 'api-key',
  docsURL: 'https://learn.microsoft.com/en-us/azure/ai-services/openai/reference',
  notes:
    'Deployment URL per model (the model id is the deployment name), `api-key` header, api-version 2024-10-21 unless set; models listed from the catalogue.',
  modelsDevId: 'azure',
  modelListing: 'catalogue',
  settings: { authStyle: 'api-key' },
  modelOverrides: [{ match: [/^o\d/, 'gpt-5*'], settings: { compat: { supportsDeveloperRole: true } } }],
};
