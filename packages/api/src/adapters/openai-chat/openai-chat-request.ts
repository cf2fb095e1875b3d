import type { LlmRequest, ThinkingConfig, ThinkingEffort } from '../../spec/request.js';
import { convertMessages } from './openai-chat-messages.js';
import type { OpenAIChatCompat, OpenAIChatThinkingStyle } from './openai-chat-settings.js';
import { OPENAI_CHAT_METADATA_KEY } from './openai-chat-settings.js';
import { prepareTools } from './openai-chat-tools.js';

/** Options of {@link buildRequestBody}. */
export interface BuildRequestBodyOptions {
  compat: OpenAIChatCompat;
  providerId: string;
  stream: boolean;
}

/**
 * The JSON body of `POST /chat/completions` for a request. `providerOptions['openai-chat']` and then
 * `providerOptions[<provider id>]` are merged over it last (top-level keys replace), the escape hatch
 * for any field the common request has no name for.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export function buildRequestBody(request: LlmRequest, options: BuildRequestBodyOptions): Record<string, unknown> {
  const { compat } = options;
  const body: Record<string, unknown> = {
    model: request.model,
    messages: convertMessages(request.system, request.messages, compat),
    ...prepareTools(request.tools, request.toolChoice),
  };
  if (request.maxOutputTokens !== undefined) body[compat.maxTokensField] = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) body.stop = request.stopSequences;
  if (request.metadata !== undefined && compat.supportsMetadata) body.metadata = request.metadata;
  Object.assign(body, thinkingFields(clampBudget(request.thinking, compat.thinkingBudgetRange), compat.thinking));
  if (options.stream) {
    body.stream = true;
    if (compat.supportsStreamOptions) body.stream_options = { include_usage: true };
  } else {
    body.stream = false;
  }
  const protocolOptions = request.providerOptions?.[OPENAI_CHAT_METADATA_KEY];
  if (protocolOptions !== undefined) Object.assign(body, protocolOptions);
  const providerOptions =
    options.providerId === OPENAI_CHAT_METADATA_KEY ? undefined : request.providerOptions?.[options.providerId];
  if (providerOptions !== undefined) Object.assign(body, providerOptions);
  return body;
}

/**
 * The body fields that switch thinking on or off in the given style (see
 * {@link OpenAIChatThinkingStyle} for the vendors and docs). A token budget becomes an effort
 * where only efforts exist: ≤ 4096 `low`, ≤ 16384 `medium`, above `high`.
 */
/** A token budget clamped into the vendor's range (other thinking settings unchanged). */
export function clampBudget(
  thinking: ThinkingConfig | undefined,
  range: { min: number; max: number } | undefined,
): ThinkingConfig | undefined {
  if (thinking?.type !== 'enabled' || range === undefined) return thinking;
  const budgetTokens = Math.min(range.max, Math.max(range.min, Math.floor(thinking.budgetTokens)));
  return budgetTokens === thinking.budgetTokens ? thinking : { ...thinking, budgetTokens };
}

export function thinkingFields(
  thinking: ThinkingConfig | undefined,
  style: OpenAIChatThinkingStyle,
): Record<string, unknown> {
  if (thinking === undefined || style === 'none') return {};
  switch (style) {
    case 'reasoning-effort':
      return thinking.type === 'disabled' ? {} : { reasoning_effort: effortOf(thinking) };
    case 'thinking-type':
      return { thinking: { type: thinking.type === 'disabled' ? 'disabled' : 'enabled' } };
    case 'enable-thinking':
      if (thinking.type === 'disabled') return { enable_thinking: false };
      return thinking.type === 'enabled'
        ? { enable_thinking: true, thinking_budget: thinking.budgetTokens }
        : { enable_thinking: true };
    case 'openrouter':
      if (thinking.type === 'disabled') return { reasoning: { effort: 'none' } };
      return thinking.type === 'enabled'
        ? { reasoning: { max_tokens: thinking.budgetTokens } }
        : { reasoning: { effort: thinking.effort } };
  }
}

function effortOf(thinking: Exclude<ThinkingConfig, { type: 'disabled' }>): ThinkingEffort {
  if (thinking.type === 'effort') return thinking.effort;
  if (thinking.budgetTokens <= 4096) return 'low';
  return thinking.budgetTokens <= 16_384 ? 'medium' : 'high';
}
