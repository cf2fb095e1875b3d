import type { ProviderEntry } from '../provider-entry.js';

/**
 * SAP AI Core. Its inference URLs are per deployment and its credential is an OAuth service key
 * (`AICORE_SERVICE_KEY`), not a bearer key; BoxAgnts lists the id without an adapter. This row has
 * no default address: pass the `baseURL` (and key) of an OpenAI-compatible endpoint in front of
 * your deployment, such as SAP's orchestration service behind your own proxy.
 *
 * @see https://help.sap.com/docs/sap-ai-core
 */
export const sapProvider: ProviderEntry = {
  id: 'sap',
  name: 'SAP AI Core (via a gateway)',
  adapter: 'openai-chat',
  requiresBaseURL: true,
  apiKeyEnvVars: ['AICORE_SERVICE_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://help.sap.com/docs/sap-ai-core',
  modelsDevId: 'sap-ai-core',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
