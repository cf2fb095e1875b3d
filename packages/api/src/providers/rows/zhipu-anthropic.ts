import type { ProviderEntry } from '../provider-entry.js';

/**
 * Zhipu AI's GLM models through the Anthropic-compatible Messages endpoint, the one Z.ai documents
 * for Claude Code (`ANTHROPIC_BASE_URL` + `ANTHROPIC_AUTH_TOKEN`, so the key goes as
 * `Authorization: Bearer`). Not the default GLM row (the `zhipu` row is): this endpoint is
 * aimed at coding tools and takes text and tools; use it when a conversation already speaks
 * Anthropic Messages or for the Coding Plan.
 *
 * - Base URL without `/v1` (the adapter adds `/v1/messages`): Z.ai by default, BigModel with
 *   `region: 'china'`. @see https://docs.z.ai/devpack/tool/claude
 *   @see https://docs.bigmodel.cn/cn/guide/develop/claude/introduction
 * - GLM's interleaved thinking wants the thinking blocks of a tool turn sent back with the tool
 *   results; GLM's blocks may come without an Anthropic signature, so unsigned thinking is replayed
 *   (`replayUnsignedThinking`). @see https://docs.z.ai/guides/capabilities/thinking-mode
 *   Unsure: whether GLM signs its thinking blocks; signed ones are replayed either way.
 */
export const zhipuAnthropicProvider: ProviderEntry = {
  id: 'zhipu-anthropic',
  name: 'Zhipu AI (GLM, Anthropic-compatible)',
  adapter: 'anthropic-messages',
  baseURL: 'https://api.z.ai/api/anthropic',
  regionalBaseURLs: {
    international: 'https://api.z.ai/api/anthropic',
    china: 'https://open.bigmodel.cn/api/anthropic',
  },
  apiKeyEnvVars: ['ZHIPU_API_KEY', 'ZAI_API_KEY', 'ZHIPUAI_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://docs.z.ai/devpack/tool/claude',
  notes:
    'GLM over Anthropic Messages (Bearer key), as documented for Claude Code; Z.ai by default, `region: "china"` for open.bigmodel.cn. Prefer the `zhipu` row (OpenAI-compatible, every model and parameter) unless you need the Anthropic wire format. Unsigned thinking is replayed for interleaved thinking.',
  modelsDevId: 'zai',
  defaultModel: 'glm-4.7',
  settings: { authStyle: 'bearer', replayUnsignedThinking: true },
};
