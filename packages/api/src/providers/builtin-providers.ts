import type { ProviderEntry } from './provider-entry.js';
import { amazonBedrockProvider } from './rows/amazon-bedrock.js';
import { anthropicProvider } from './rows/anthropic.js';
import { anthropicCompatibleProvider } from './rows/anthropic-compatible.js';
import { azureOpenAIProvider } from './rows/azure-openai.js';
import { cohereProvider } from './rows/cohere.js';
import { deepseekProvider } from './rows/deepseek.js';
import { googleProvider } from './rows/google.js';
import { lmstudioProvider } from './rows/lmstudio.js';
import { mistralProvider } from './rows/mistral.js';
import { ollamaProvider } from './rows/ollama.js';
import { openaiProvider } from './rows/openai.js';
import { openaiChatProvider } from './rows/openai-chat.js';
import { openaiCompatibleProvider } from './rows/openai-compatible.js';
import { vertexProvider } from './rows/vertex.js';
import { vllmProvider } from './rows/vllm.js';
import { xaiProvider } from './rows/xai.js';

/**
 * Every provider row shipped with the package, in the order `registry.list()` shows them and bare
 * model names are looked up: first-party vendors, then clouds, then aggregators, then local and
 * generic servers.
 */
export const BUILTIN_PROVIDERS: readonly ProviderEntry[] = [
  anthropicProvider,
  openaiProvider,
  openaiChatProvider,
  googleProvider,
  mistralProvider,
  deepseekProvider,
  xaiProvider,
  cohereProvider,
  azureOpenAIProvider,
  vertexProvider,
  amazonBedrockProvider,
  ollamaProvider,
  lmstudioProvider,
  vllmProvider,
  openaiCompatibleProvider,
  anthropicCompatibleProvider,
];
