import type { ProviderEntry } from './provider-entry.js';
import { amazonBedrockProvider } from './rows/amazon-bedrock.js';
import { anthropicProvider } from './rows/anthropic.js';
import { anthropicCompatibleProvider } from './rows/anthropic-compatible.js';
import { azureOpenAIProvider } from './rows/azure-openai.js';
import { baiduQianfanProvider } from './rows/baidu-qianfan.js';
import { cerebrasProvider } from './rows/cerebras.js';
import { cohereProvider } from './rows/cohere.js';
import { deepseekProvider } from './rows/deepseek.js';
import { fireworksProvider } from './rows/fireworks.js';
import { googleProvider } from './rows/google.js';
import { groqProvider } from './rows/groq.js';
import { lmstudioProvider } from './rows/lmstudio.js';
import { minimaxProvider } from './rows/minimax.js';
import { mistralProvider } from './rows/mistral.js';
import { moonshotProvider } from './rows/moonshot.js';
import { ollamaProvider } from './rows/ollama.js';
import { openaiProvider } from './rows/openai.js';
import { openaiChatProvider } from './rows/openai-chat.js';
import { openaiCompatibleProvider } from './rows/openai-compatible.js';
import { openrouterProvider } from './rows/openrouter.js';
import { perplexityProvider } from './rows/perplexity.js';
import { qwenProvider } from './rows/qwen.js';
import { siliconflowProvider } from './rows/siliconflow.js';
import { tencentHunyuanProvider } from './rows/tencent-hunyuan.js';
import { togetherProvider } from './rows/together.js';
import { vertexProvider } from './rows/vertex.js';
import { vllmProvider } from './rows/vllm.js';
import { volcengineProvider } from './rows/volcengine.js';
import { xaiProvider } from './rows/xai.js';
import { zhipuProvider } from './rows/zhipu.js';
import { zhipuAnthropicProvider } from './rows/zhipu-anthropic.js';

/**
 * Every provider row shipped with the package, in the order `registry.list()` shows them and bare
 * model names are looked up: the vendors who make the models (OpenAI-compatible endpoints before a
 * vendor's alternative Anthropic-compatible one), then the clouds that resell them, then inference
 * hosts and routers, then local servers and the generic rows that need a base URL.
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
  perplexityProvider,
  zhipuProvider,
  zhipuAnthropicProvider,
  minimaxProvider,
  moonshotProvider,
  qwenProvider,
  volcengineProvider,
  baiduQianfanProvider,
  tencentHunyuanProvider,
  azureOpenAIProvider,
  vertexProvider,
  amazonBedrockProvider,
  groqProvider,
  cerebrasProvider,
  togetherProvider,
  fireworksProvider,
  siliconflowProvider,
  openrouterProvider,
  ollamaProvider,
  lmstudioProvider,
  vllmProvider,
  openaiCompatibleProvider,
  anthropicCompatibleProvider,
];
