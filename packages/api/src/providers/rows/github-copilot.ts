import type { ProviderEntry } from '../provider-entry.js';
import { GITHUB_COPILOT_DEFAULT_BASE_URL } from '../token-files/github-copilot-provider.js';

/**
 * GitHub Copilot's API with a GitHub token: `GITHUB_TOKEN`, else the `github-copilot` entry BoxAgnts
 * keeps in `<workspace>/.boxagnts/auth.json` (its OAuth `refresh` token, else `access`, as BoxAgnts
 * sends it). The token is sent as `Authorization: Bearer` to `api.githubcopilot.com` with Copilot's
 * headers (`Openai-Intent: conversation-edits`, `x-initiator`, `Copilot-Vision-Request`);
 * GPT-5-class models (but `gpt-5-mini`) use `/responses`, the others `/chat/completions`, the split
 * BoxAgnts and OpenCode make. The folder is `parameters: {boxagntsDir}` or `BOXAGNTS_DIR`, default
 * `.boxagnts` in the working directory. BoxAgnts exchanges no token first (it sends the GitHub token
 * itself), and neither does this row.
 *
 * @see https://docs.github.com/en/copilot
 */
export const githubCopilotProvider: ProviderEntry = {
  id: 'github-copilot',
  name: 'GitHub Copilot',
  adapter: 'github-copilot',
  baseURL: GITHUB_COPILOT_DEFAULT_BASE_URL,
  apiKeyEnvVars: ['GITHUB_TOKEN'],
  credentialFiles: ['{boxagntsDir}/auth.json'],
  authStyle: 'bearer',
  parameters: {
    boxagntsDir: {
      envVars: ['BOXAGNTS_DIR'],
      default: '.boxagnts',
      description: "the folder of BoxAgnts' auth.json",
    },
  },
  configure: ({ parameters }) => ({
    ...(parameters.boxagntsDir === undefined ? {} : { tokenDir: parameters.boxagntsDir }),
  }),
  docsURL: 'https://docs.github.com/en/copilot',
  notes:
    "GITHUB_TOKEN, else BoxAgnts' .boxagnts/auth.json (`github-copilot` entry); Responses API for GPT-5-class models, Chat Completions for the rest.",
  modelsDevId: 'github-copilot',
  defaultModel: 'gpt-4.1',
};
