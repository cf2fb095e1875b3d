import type { ProviderEntry } from '../provider-entry.js';

/**
 * StepFun, OpenAI-compatible. `https://api.stepfun.com/v1` is the China platform (BoxAgnts,
 * models.dev, StepFun's Chinese docs); `region: 'international'` is `https://api.stepfun.ai/v1`
 * (platform.stepfun.ai). Keys are per platform.
 *
 * @see https://platform.stepfun.com/docs/zh/guides/developer/openai
 */
export const stepfunProvider: ProviderEntry = {
  id: 'stepfun',
  name: 'StepFun',
  adapter: 'openai-chat',
  baseURL: 'https://api.stepfun.com/v1',
  regionalBaseURLs: {
    china: 'https://api.stepfun.com/v1',
    international: 'https://api.stepfun.ai/v1',
  },
  apiKeyEnvVars: ['STEPFUN_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://platform.stepfun.com/docs/zh/guides/developer/openai',
  modelsDevId: 'stepfun',
  defaultModel: 'step-3.5-flash',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
