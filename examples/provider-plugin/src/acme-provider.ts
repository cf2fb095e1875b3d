import type { ProviderEntry } from '@boxagnts/api';

/** The adapter id this plugin registers; third-party ids carry a `:` so they never clash with built-in ones. */
export const ACME_ADAPTER_ID = 'acme:chat';

/**
 * Acme's provider row: data, like every built-in row, served by the plugin's own adapter. Its
 * `settings` are passed to the adapter factory as they are.
 */
export const acmeProvider: ProviderEntry = {
  id: 'acme',
  name: 'Acme AI',
  adapter: ACME_ADAPTER_ID,
  baseURL: 'https://api.acme.example',
  apiKeyEnvVars: ['ACME_API_KEY', 'ACME_TOKEN'],
  authStyle: 'bearer',
  headers: { 'x-acme-client': 'boxagnts-plugin-example' },
  docsURL: 'https://docs.acme.example/api',
  notes: 'Example third-party provider shipped as a plugin package.',
  defaultModel: 'acme-large',
  settings: { creativity: 0.2 },
  modelOverrides: [{ match: 'acme-small*', settings: { creativity: 0 } }],
};
