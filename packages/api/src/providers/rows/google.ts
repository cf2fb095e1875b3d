import { GEMINI_API_KEY_ENV_VARS, GEMINI_DEFAULT_BASE_URL } from '../../adapters/gemini/gemini-provider.js';
import type { ProviderEntry } from '../provider-entry.js';

/**
 * Google Gemini API (AI Studio keys) over its own `generateContent` protocol, key in
 * `x-goog-api-key`. Google's SDKs read `GEMINI_API_KEY` (and `GOOGLE_API_KEY`); the Vercel AI SDK
 * reads `GOOGLE_GENERATIVE_AI_API_KEY`: all are checked.
 *
 * @see https://ai.google.dev/api/generate-content
 * @see https://ai.google.dev/gemini-api/docs/api-key
 */
export const googleProvider: ProviderEntry = {
  id: 'google',
  name: 'Google Gemini',
  adapter: 'gemini',
  baseURL: GEMINI_DEFAULT_BASE_URL,
  apiKeyEnvVars: GEMINI_API_KEY_ENV_VARS,
  authStyle: 'x-goog-api-key',
  docsURL: 'https://ai.google.dev/api/generate-content',
  notes: 'Gemini API (AI Studio); thought signatures kept and replayed.',
  modelsDevId: 'google',
  defaultModel: 'gemini-2.5-flash',
};
