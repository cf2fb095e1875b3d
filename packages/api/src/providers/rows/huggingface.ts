import type { ProviderEntry } from '../provider-entry.js';

/**
 * Hugging Face's Inference Providers router, OpenAI-compatible at `https://router.huggingface.co/v1`
 * with a Hugging Face token (fine-grained, "Make calls to Inference Providers"). A `:provider` suffix
 * on the model id (`openai/gpt-oss-20b:groq`) picks the host; the router interprets it.
 *
 * @see https://huggingface.co/docs/inference-providers
 */
export const huggingfaceProvider: ProviderEntry = {
  id: 'huggingface',
  name: 'Hugging Face Inference Providers',
  adapter: 'openai-chat',
  baseURL: 'https://router.huggingface.co/v1',
  apiKeyEnvVars: ['HF_TOKEN', 'HUGGINGFACE_HUB_TOKEN', 'HUGGINGFACE_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://huggingface.co/docs/inference-providers',
  modelsDevId: 'huggingface',
  defaultModel: 'Qwen/Qwen3-Coder-Next',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
