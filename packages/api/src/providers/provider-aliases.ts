/**
 * Another name for a provider row, optionally with a region preset: how the ids other tools use
 * (BoxAgnts, models.dev) reach the same row. `registry.getProvider(alias)`, `resolve('alias/model')`,
 * `createProvider({provider: alias})` and `configure(alias, …)` all accept one.
 */
export interface ProviderAlias {
  /** The other id (`together-ai`). */
  alias: string;
  /** The id of the row it stands for (`together`). */
  provider: string;
  /** A key of the row's `regionalBaseURLs` used unless the caller asks for another region. */
  region?: string;
  /** Why the alias exists or what differs, shown in docs. */
  note?: string;
}

/**
 * The aliases the default registry knows: every BoxAgnts provider id that names a row of this
 * package under another id (BoxAgnts' `core/src/provider_id.rs` and the ids its `registry.rs`
 * accepts), and the models.dev ids of the same rows.
 */
export const BUILTIN_PROVIDER_ALIASES: readonly ProviderAlias[] = [
  { alias: 'google-vertex', provider: 'vertex' },
  { alias: 'azure', provider: 'azure-openai' },
  { alias: 'together-ai', provider: 'together' },
  { alias: 'togetherai', provider: 'together' },
  { alias: 'lm-studio', provider: 'lmstudio' },
  { alias: 'llamacpp', provider: 'llama-cpp' },
  { alias: 'llama-server', provider: 'llama-cpp' },
  { alias: 'llama.cpp', provider: 'llama-cpp' },
  { alias: 'moonshotai', provider: 'moonshot' },
  {
    alias: 'zhipuai',
    provider: 'zhipu',
    region: 'china',
    note: "BoxAgnts' `zhipuai` is BigModel (open.bigmodel.cn), the China platform.",
  },
  {
    alias: 'zai',
    provider: 'zhipu',
    region: 'international-coding',
    note: "BoxAgnts' `zai` is Z.ai's GLM Coding Plan endpoint (api.z.ai/api/coding/paas/v4).",
  },
  {
    alias: 'zai-coding-plan',
    provider: 'zhipu',
    region: 'international-coding',
    note: 'The models.dev id of the Z.ai GLM Coding Plan.',
  },
  {
    alias: 'alibaba',
    provider: 'qwen',
    note: 'DashScope (Model Studio). BoxAgnts sends `alibaba` and `qwen` to the Beijing endpoint; here both default to Singapore (models.dev `alibaba`): use `region: "china"` for Beijing keys.',
  },
  { alias: 'alibaba-cn', provider: 'qwen', region: 'china' },
  { alias: 'vultr-ai', provider: 'vultr' },
  { alias: 'openai-codex', provider: 'codex' },
  { alias: 'custom-openai', provider: 'openai-compatible' },
  { alias: 'cloudflare-workers-ai', provider: 'cloudflare' },
  { alias: 'sap-ai-core', provider: 'sap' },
  { alias: 'opencode', provider: 'opencode-zen', note: 'The models.dev id of OpenCode Zen.' },
  { alias: 'fireworks-ai', provider: 'fireworks' },
  { alias: 'novita-ai', provider: 'novita' },
];
