import type { ProviderEntry } from '../provider-entry.js';

/**
 * GitLab Duo. GitLab documents no public OpenAI-compatible endpoint, and BoxAgnts lists the id
 * without an adapter behind it, so this row has no default address: pass the `baseURL` of an
 * OpenAI-compatible gateway that serves your GitLab Duo models (with `GITLAB_TOKEN` as its key).
 * It exists so that BoxAgnts configurations naming `gitlab` resolve and say what to set.
 *
 * @see https://docs.gitlab.com/user/duo_agent_platform/
 */
export const gitlabProvider: ProviderEntry = {
  id: 'gitlab',
  name: 'GitLab Duo (via a gateway)',
  adapter: 'openai-chat',
  requiresBaseURL: true,
  apiKeyEnvVars: ['GITLAB_TOKEN'],
  authStyle: 'bearer',
  docsURL: 'https://docs.gitlab.com/user/duo_agent_platform/',
  modelsDevId: 'gitlab',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
