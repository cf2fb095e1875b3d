import type { ProviderEntry } from './provider-entry.js';
import { amazonBedrockProvider } from './rows/amazon-bedrock.js';
import { anthropicProvider } from './rows/anthropic.js';
import { anthropicCompatibleProvider } from './rows/anthropic-compatible.js';
import { azureOpenAIProvider } from './rows/azure-openai.js';
import { baiduQianfanProvider } from './rows/baidu-qianfan.js';
import { basetenProvider } from './rows/baseten.js';
import { cerebrasProvider } from './rows/cerebras.js';
import { cloudflareProvider } from './rows/cloudflare.js';
import { codexProvider } from './rows/codex.js';
import { cohereProvider } from './rows/cohere.js';
import { crofProvider } from './rows/crof.js';
import { deepinfraProvider } from './rows/deepinfra.js';
import { deepseekProvider } from './rows/deepseek.js';
import { fireworksProvider } from './rows/fireworks.js';
import { freeProvider } from './rows/free.js';
import { friendliProvider } from './rows/friendli.js';
import { githubCopilotProvider } from './rows/github-copilot.js';
import { gitlabProvider } from './rows/gitlab.js';
import { googleProvider } from './rows/google.js';
import { groqProvider } from './rows/groq.js';
import { huggingfaceProvider } from './rows/huggingface.js';
import { llamaCppProvider } from './rows/llama-cpp.js';
import { lmstudioProvider } from './rows/lmstudio.js';
import { minimaxProvider } from './rows/minimax.js';
import { mistralProvider } from './rows/mistral.js';
import { moonshotProvider } from './rows/moonshot.js';
import { nebiusProvider } from './rows/nebius.js';
import { neuralwattProvider } from './rows/neuralwatt.js';
import { novitaProvider } from './rows/novita.js';
import { nvidiaProvider } from './rows/nvidia.js';
import { ollamaProvider } from './rows/ollama.js';
import { openaiProvider } from './rows/openai.js';
import { openaiChatProvider } from './rows/openai-chat.js';
import { openaiCompatibleProvider } from './rows/openai-compatible.js';
import { opencodeGoProvider } from './rows/opencode-go.js';
import { opencodeZenProvider } from './rows/opencode-zen.js';
import { openrouterProvider } from './rows/openrouter.js';
import { ovhcloudProvider } from './rows/ovhcloud.js';
import { perplexityProvider } from './rows/perplexity.js';
import { qwenProvider } from './rows/qwen.js';
import { routingProvider } from './rows/routing.js';
import { sambanovaProvider } from './rows/sambanova.js';
import { sapProvider } from './rows/sap.js';
import { scalewayProvider } from './rows/scaleway.js';
import { siliconflowProvider } from './rows/siliconflow.js';
import { stepfunProvider } from './rows/stepfun.js';
import { syntheticProvider } from './rows/synthetic.js';
import { tencentHunyuanProvider } from './rows/tencent-hunyuan.js';
import { togetherProvider } from './rows/together.js';
import { upstageProvider } from './rows/upstage.js';
import { veniceProvider } from './rows/venice.js';
import { vertexProvider } from './rows/vertex.js';
import { vllmProvider } from './rows/vllm.js';
import { volcengineProvider } from './rows/volcengine.js';
import { vultrProvider } from './rows/vultr.js';
import { xaiProvider } from './rows/xai.js';
import { zhipuProvider } from './rows/zhipu.js';
import { zhipuAnthropicProvider } from './rows/zhipu-anthropic.js';

/**
 * Every provider row shipped with the package, in the order `registry.list()` shows them and bare
 * model names are looked up: the vendors who make the models (OpenAI-compatible endpoints before a
 * vendor's alternative Anthropic-compatible one), then the clouds that resell them, then inference
 * hosts and routers (and the `free` chain of free tiers), then local servers and the rows that need a base URL.
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
  cloudflareProvider,
  scalewayProvider,
  ovhcloudProvider,
  nvidiaProvider,
  githubCopilotProvider,
  codexProvider,
  groqProvider,
  cerebrasProvider,
  togetherProvider,
  fireworksProvider,
  siliconflowProvider,
  deepinfraProvider,
  sambanovaProvider,
  nebiusProvider,
  novitaProvider,
  basetenProvider,
  friendliProvider,
  vultrProvider,
  veniceProvider,
  upstageProvider,
  stepfunProvider,
  syntheticProvider,
  neuralwattProvider,
  crofProvider,
  openrouterProvider,
  huggingfaceProvider,
  opencodeZenProvider,
  opencodeGoProvider,
  routingProvider,
  freeProvider,
  ollamaProvider,
  lmstudioProvider,
  llamaCppProvider,
  vllmProvider,
  openaiCompatibleProvider,
  anthropicCompatibleProvider,
  gitlabProvider,
  sapProvider,
];
