// Which models.dev providers the shipped catalogue holds, and how BoxAgnts provider ids map onto them.
// The models.dev ids and doc URLs below are taken from the models.dev snapshot of May 2026
// (`../shared/data/models.dev-api.json`, each provider's `doc` field); the API is https://models.dev/api.json.

/**
 * The models.dev providers shipped in `data/catalogue.json`, in lookup order: the vendors who make the
 * models first (so a bare `gpt-4o` finds OpenAI's row, not a reseller's), then clouds, then hosts and
 * routers. All of models.dev is ~1.9 MB and 119 providers; these are the ones BoxAgnts has providers for.
 */
export const CATALOGUE_SOURCE_PROVIDERS: readonly string[] = [
  'anthropic', // https://docs.anthropic.com/en/docs/about-claude/models
  'openai', // https://platform.openai.com/docs/models
  'google', // https://ai.google.dev/gemini-api/docs/models
  'xai', // https://docs.x.ai/docs/models
  'deepseek', // https://api-docs.deepseek.com/quick_start/pricing
  'mistral', // https://docs.mistral.ai/getting-started/models/
  'cohere', // https://docs.cohere.com/docs/models
  'zai', // Z.ai international, https://docs.z.ai/guides/overview/pricing
  'zhipuai', // Zhipu (open.bigmodel.cn, China), same pricing page
  'moonshotai', // https://platform.moonshot.ai/docs/api/chat
  'moonshotai-cn', // https://platform.moonshot.cn/docs/api/chat
  'minimax', // https://platform.minimax.io/docs/guides/quickstart
  'minimax-cn', // https://platform.minimaxi.com/docs/guides/quickstart
  'alibaba', // DashScope international, https://www.alibabacloud.com/help/en/model-studio/models
  'alibaba-cn', // DashScope China (prices differ from international)
  'perplexity', // https://docs.perplexity.ai
  'tencent-tokenhub', // Tencent Cloud TokenHub, https://cloud.tencent.com/document/product/1823/130050
  'google-vertex', // https://cloud.google.com/vertex-ai/generative-ai/docs/models (Gemini and Claude `@` ids)
  'amazon-bedrock', // https://docs.aws.amazon.com/bedrock/latest/userguide/models-supported.html
  'azure', // https://learn.microsoft.com/en-us/azure/ai-services/openai/concepts/models
  'groq', // https://console.groq.com/docs/models
  'cerebras', // https://inference-docs.cerebras.ai/models/overview
  'togetherai', // https://docs.together.ai/docs/serverless-models
  'fireworks-ai', // https://fireworks.ai/docs/
  'siliconflow', // https://cloud.siliconflow.com/models
  'siliconflow-cn', // SiliconFlow China (api.siliconflow.cn)
  'openrouter', // https://openrouter.ai/models
  'ollama-cloud', // https://docs.ollama.com/cloud (no prices in models.dev)
  'lmstudio', // https://lmstudio.ai/models (local, price 0)
];

/**
 * BoxAgnts provider ids -> the catalogue (models.dev) providers that price and describe their models,
 * the default endpoint first. Lookups with a BoxAgnts id search these in order; a catalogue id
 * (`zhipuai`, `alibaba-cn`, ...) may be passed instead to pin one endpoint's prices. An empty list
 * means models.dev has no such provider: costs are unknown, capabilities fall back to any provider's row.
 */
export const CATALOGUE_PROVIDER_MAP: Readonly<Record<string, readonly string[]>> = {
  anthropic: ['anthropic'],
  openai: ['openai'],
  'openai-chat': ['openai'], // OpenAI through Chat Completions instead of Responses
  'azure-openai': ['azure'], // models.dev `azure` (Azure OpenAI / AI Foundry deployments by model name)
  google: ['google'],
  vertex: ['google-vertex'], // `google-vertex` holds Gemini and the Claude `name@date` ids
  'amazon-bedrock': ['amazon-bedrock'],
  cohere: ['cohere'],
  mistral: ['mistral'],
  deepseek: ['deepseek'],
  zhipu: ['zai', 'zhipuai'], // international z.ai first, then open.bigmodel.cn (same prices in May 2026)
  'zhipu-anthropic': ['zai', 'zhipuai'], // GLM through Z.ai's Anthropic-compatible endpoint, same models
  minimax: ['minimax', 'minimax-cn'], // minimax.io first, then minimaxi.com
  moonshot: ['moonshotai', 'moonshotai-cn'], // api.moonshot.ai first, then api.moonshot.cn
  qwen: ['alibaba', 'alibaba-cn'], // DashScope international first; China prices differ, pass `alibaba-cn` for them
  xai: ['xai'],
  groq: ['groq'],
  together: ['togetherai'],
  fireworks: ['fireworks-ai'],
  openrouter: ['openrouter'],
  perplexity: ['perplexity'],
  cerebras: ['cerebras'],
  siliconflow: ['siliconflow', 'siliconflow-cn'],
  // The Hunyuan API (api.hunyuan.cloud.tencent.com) is not in models.dev. Its `tencent-tokenhub` is a
  // different Tencent endpoint (TokenHub, hy3-preview: https://cloud.tencent.com/document/product/1823/132252),
  // shipped and usable as a catalogue id, but not this provider's prices.
  'tencent-hunyuan': [],
  volcengine: [], // not in models.dev (May 2026): Doubao prices are unknown
  'baidu-qianfan': [], // not in models.dev (May 2026)
  ollama: ['ollama-cloud'], // Ollama Cloud's models; local models are not priced
  lmstudio: ['lmstudio'],
  vllm: [], // self-hosted: no price
  'openai-compatible': [],
  'anthropic-compatible': [],
};

/**
 * The catalogue providers to search for `provider`: its mapped list for a BoxAgnts id, `[provider]`
 * for a catalogue id, `undefined` when the id is neither (search everything).
 */
export function catalogueProvidersFor(
  provider: string,
  catalogueProviderIds: ReadonlySet<string>,
): readonly string[] | undefined {
  const mapped = CATALOGUE_PROVIDER_MAP[provider];
  if (mapped !== undefined && Object.hasOwn(CATALOGUE_PROVIDER_MAP, provider)) return mapped;
  if (catalogueProviderIds.has(provider)) return [provider];
  return undefined;
}
