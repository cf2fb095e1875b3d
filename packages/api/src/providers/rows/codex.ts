import type { ProviderEntry } from '../provider-entry.js';
import { CODEX_DEFAULT_BASE_URL } from '../token-files/openai-codex-provider.js';

/**
 * OpenAI Codex with a ChatGPT subscription, signed in through BoxAgnts: the tokens BoxAgnts' Codex
 * login writes to `<workspace>/.boxagnts/codex_tokens.json` (`{access_token, refresh_token,
 * account_id, expires_at}`). An expired access token is refreshed at OpenAI's OAuth endpoint and
 * written back in the same format. Requests use the Responses API on the ChatGPT backend
 * (`https://chatgpt.com/backend-api/codex/responses`, `store: false`, `ChatGPT-Account-Id`). The
 * folder is `parameters: {boxagntsDir}` or `BOXAGNTS_DIR`, default `.boxagnts` in the working
 * directory; `apiKey` passes an access token directly.
 *
 * @see https://developers.openai.com/codex/auth
 */
export const codexProvider: ProviderEntry = {
  id: 'codex',
  name: 'OpenAI Codex (ChatGPT login)',
  adapter: 'openai-codex',
  baseURL: CODEX_DEFAULT_BASE_URL,
  apiKeyEnvVars: [],
  credentialFiles: ['{boxagntsDir}/codex_tokens.json'],
  authStyle: 'bearer',
  parameters: {
    boxagntsDir: {
      envVars: ['BOXAGNTS_DIR'],
      default: '.boxagnts',
      description: "the folder of BoxAgnts' codex_tokens.json",
    },
  },
  configure: ({ parameters }) => ({
    ...(parameters.boxagntsDir === undefined ? {} : { tokenDir: parameters.boxagntsDir }),
  }),
  docsURL: 'https://developers.openai.com/codex/auth',
  notes:
    "BoxAgnts' .boxagnts/codex_tokens.json, refreshed when expired; the Responses API on chatgpt.com/backend-api/codex.",
  defaultModel: 'gpt-5.2-codex',
};
