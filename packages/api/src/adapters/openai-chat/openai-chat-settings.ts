import type { AdapterSettings } from '../../shared/adapter-settings.js';
import type { ToolCallIdRules } from '../../shared/tool-call-ids.js';

/**
 * How a request's `thinking` config is switched on for a Chat Completions server:
 *
 * - `reasoning-effort`: `reasoning_effort: 'low' | 'medium' | 'high'` (OpenAI o-series and gpt-5, Groq,
 *   xAI). A token budget becomes an effort (≤ 4096 low, ≤ 16384 medium, above high); `disabled` sends
 *   nothing, so the model's default applies. @see https://platform.openai.com/docs/api-reference/chat/create
 * - `thinking-type`: `thinking: {type: 'enabled' | 'disabled'}` (DeepSeek, Zhipu GLM, Moonshot Kimi).
 *   Budgets and efforts only switch it on; tune the depth with `providerOptions`.
 *   @see https://api-docs.deepseek.com/guides/thinking_mode @see https://docs.z.ai/guides/capabilities/thinking-mode
 * - `enable-thinking`: `enable_thinking: true | false`, plus `thinking_budget` for a token budget
 *   (Alibaba DashScope / Qwen, SiliconFlow). @see https://help.aliyun.com/en/model-studio/deep-thinking
 * - `openrouter`: `reasoning: {effort}` or `reasoning: {max_tokens}`; `disabled` sends `{effort: 'none'}`.
 *   @see https://openrouter.ai/docs/use-cases/reasoning-tokens
 * - `none`: the config is ignored (models without a switch).
 */
export type OpenAIChatThinkingStyle = 'reasoning-effort' | 'thinking-type' | 'enable-thinking' | 'openrouter' | 'none';

/** A field of a streamed delta (or a non-streamed message) that carries reasoning text. */
export type OpenAIChatReasoningField = 'reasoning_content' | 'reasoning';

/**
 * Tool-call id limits: the shared {@link ToolCallIdRules} plus an exact length, because Mistral
 * rejects any id that is not exactly 9 characters of `[a-zA-Z0-9]`.
 */
export interface OpenAIChatToolCallIdRules extends ToolCallIdRules {
  /** Every id sent must have exactly this many characters. */
  exactLength?: number;
}

/**
 * The quirks of one Chat Completions server. Providers are data: each row of the provider table
 * sets these; nothing in the adapter branches on a vendor name.
 */
export interface OpenAIChatCompat {
  /**
   * Field for `maxOutputTokens`. OpenAI deprecated `max_tokens` and its reasoning models reject it;
   * most compatible servers (DeepSeek, GLM, Mistral, vLLM) only know `max_tokens`.
   */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Send `stream_options: {include_usage: true}` so the last chunk carries usage (Mistral rejects it). */
  supportsStreamOptions: boolean;
  /**
   * Delta fields read as reasoning, in order; the first non-empty one of a delta wins, so a server
   * that sends the same text under both names is not doubled. `reasoning_content`: DeepSeek, Kimi,
   * Qwen, GLM, xAI; `reasoning`: Groq, OpenRouter, vLLM.
   */
  reasoningFields: readonly OpenAIChatReasoningField[];
  /**
   * Send the thinking of an assistant message back as `reasoning_content`. DeepSeek rejects a request
   * whose earlier tool-call turns lack it (HTTP 400), Kimi and GLM need it for interleaved thinking.
   * When on, every assistant message with thinking carries it, and a tool-call message without any
   * thinking (history from another vendor) carries `""`.
   * @see https://api-docs.deepseek.com/guides/thinking_mode
   * @see https://platform.kimi.com/docs/guide/use-kimi-k2-thinking-model
   * @see https://docs.bigmodel.cn/cn/guide/capabilities/thinking-mode
   */
  echoReasoningContent: boolean;
  /**
   * Send OpenRouter's `reasoning_details` (stored on the assistant message) back unchanged, which
   * signed or encrypted reasoning of Anthropic and Gemini models needs across tool calls.
   * @see https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks
   */
  echoReasoningDetails: boolean;
  /** Limits on tool-call ids (Mistral: exactly 9 alphanumeric characters); every id sent is rewritten to fit. */
  toolCallIdRules: OpenAIChatToolCallIdRules | undefined;
  /** Send system instructions with role `developer` (OpenAI o1 and later) instead of `system`. */
  supportsDeveloperRole: boolean;
  /** How `thinking` is switched on; see {@link OpenAIChatThinkingStyle}. */
  thinking: OpenAIChatThinkingStyle;
  /**
   * The token budgets the vendor accepts (SiliconFlow: 128-32768); a `thinking.budgetTokens` outside
   * is clamped into it. Unset: budgets are sent as given.
   */
  thinkingBudgetRange?: { min: number; max: number };
  /**
   * Put `cache_control: {type: 'ephemeral'}` on the system text before the cache boundary (OpenRouter
   * for Anthropic models, DashScope explicit cache); other servers cache prefixes automatically.
   */
  supportsCacheControl: boolean;
  /** Accept PDFs as `{type: 'file', file: {file_data}}` parts (OpenAI); otherwise a text note stands in. */
  supportsDocuments: boolean;
  /** Send `LlmRequest.metadata` as the `metadata` field (OpenAI needs `store: true` with it). */
  supportsMetadata: boolean;
}

/** OpenAI's own behaviour: the defaults every field of {@link OpenAIChatCompat} falls back to. */
export const DEFAULT_OPENAI_CHAT_COMPAT: Readonly<OpenAIChatCompat> = {
  maxTokensField: 'max_completion_tokens',
  supportsStreamOptions: true,
  reasoningFields: ['reasoning_content', 'reasoning'],
  echoReasoningContent: false,
  echoReasoningDetails: false,
  toolCallIdRules: undefined,
  supportsDeveloperRole: false,
  thinking: 'reasoning-effort',
  supportsCacheControl: false,
  supportsDocuments: true,
  supportsMetadata: false,
};

/** Mistral: tool-call ids must be exactly 9 characters of `[a-zA-Z0-9]` (HTTP 400 otherwise). */
export const MISTRAL_TOOL_CALL_ID_RULES: OpenAIChatToolCallIdRules = {
  allowed: /[a-zA-Z0-9]/,
  maxLength: 9,
  exactLength: 9,
};

/** Settings of {@link createOpenAIChatProvider}. */
export interface OpenAIChatSettings extends AdapterSettings {
  /**
   * How the key is sent: `bearer` (`authorization: Bearer …`, default), `api-key` (Azure's `api-key`
   * header), or `none` (local servers; same as `noApiKey`).
   */
  authStyle?: 'bearer' | 'api-key' | 'none';
  /** Query parameters on every request, e.g. Azure's `{'api-version': '2024-10-21'}`. */
  query?: Record<string, string>;
  /** The server's quirks; omitted fields take OpenAI's behaviour ({@link DEFAULT_OPENAI_CHAT_COMPAT}). */
  compat?: Partial<OpenAIChatCompat>;
}

/** The provider-metadata key this adapter writes and reads (on messages and blocks). */
export const OPENAI_CHAT_METADATA_KEY = 'openai-chat';

/** The default base URL (OpenAI). */
export const OPENAI_CHAT_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** The default key variables (OpenAI). */
export const OPENAI_CHAT_DEFAULT_API_KEY_ENV_VARS: readonly string[] = ['OPENAI_API_KEY'];

/** The compat of `settings` with every omitted field filled from {@link DEFAULT_OPENAI_CHAT_COMPAT}. */
export function resolveCompat(compat: Partial<OpenAIChatCompat> | undefined): OpenAIChatCompat {
  const resolved: OpenAIChatCompat = { ...DEFAULT_OPENAI_CHAT_COMPAT };
  if (compat === undefined) return resolved;
  for (const [key, value] of Object.entries(compat)) {
    if (value !== undefined) (resolved as unknown as Record<string, unknown>)[key] = value;
  }
  return resolved;
}
