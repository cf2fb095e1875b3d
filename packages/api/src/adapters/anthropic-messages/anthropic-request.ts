import { claudeThinkingRequest } from '../../shared/claude-thinking.js';
import { type SystemPromptSegment, systemPromptSegments } from '../../shared/system-prompt.js';
import type { LlmRequest, ThinkingConfig } from '../../spec/request.js';
import { ANTHROPIC_METADATA_KEY, convertToAnthropicMessages } from './anthropic-messages.js';
import { prepareAnthropicTools } from './anthropic-tools.js';
import type { AnthropicRequestBody, AnthropicSystemBlock } from './anthropic-wire.js';

/** `max_tokens` when the request sets no `maxOutputTokens` (the API requires the field). */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 8_192;

/** The API accepts at most four `cache_control` breakpoints per request. */
const MAX_CACHE_BREAKPOINTS = 4;

/** Options of {@link buildAnthropicRequestBody}. */
export interface BuildAnthropicRequestBodyOptions {
  /** The provider id; `providerOptions[providerId]` is merged after `providerOptions.anthropic`. */
  providerId: string;
  /** `max_tokens` when the request has no `maxOutputTokens`. Default {@link DEFAULT_ANTHROPIC_MAX_TOKENS}. */
  defaultMaxOutputTokens?: number;
  /** See `ConvertToAnthropicMessagesOptions.replayUnsignedThinking`. */
  replayUnsignedThinking?: boolean;
}

/**
 * Builds the Messages API request body (without `stream`) from a vendor-neutral request.
 *
 * - `system`: the system prompt's segments, then the text of system messages; the segment before
 *   each cache boundary gets `cache_control: {type: 'ephemeral'}`, and so does the last tool. At
 *   most four breakpoints are sent (the API's limit): the tool's and the last three of the system.
 *   A prompt of one segment without a breakpoint is sent as a plain string.
 * - `thinking`, per model (`claudeThinkingStyle`): on Claude 4.5 and older a budget is
 *   `{type: 'enabled', budget_tokens}` (at least 1024) and an effort level becomes a budget
 *   (low 2048, medium 8192, high 24576); on Claude 4.6 an effort is adaptive thinking
 *   (`{type: 'adaptive'}` + `output_config.effort`) and a budget stays a budget; on Opus 4.7 and
 *   later both are adaptive (a budget picks the effort: <= 4096 low, <= 16384 medium, else high).
 *   `max_tokens` must exceed a budget, so when it does not the budget is added to it. Non-Claude
 *   models keep the request's form. Disabled is `{type: 'disabled'}`.
 * - `metadata`: only `user_id` (or `userId`) exists in the API; other keys are not sent.
 * - `providerOptions.anthropic` (and `providerOptions[providerId]`) are merged last, so any field
 *   can be set or overridden, e.g. `{ anthropic: { top_k: 5, service_tier: 'auto' } }`.
 *
 * @see https://docs.claude.com/en/api/messages
 * @see https://docs.claude.com/en/docs/build-with-claude/prompt-caching
 * @see https://docs.claude.com/en/docs/build-with-claude/extended-thinking
 * @see https://docs.claude.com/en/docs/build-with-claude/adaptive-thinking
 */
export function buildAnthropicRequestBody(
  request: LlmRequest,
  options: BuildAnthropicRequestBodyOptions,
): AnthropicRequestBody {
  const { messages, systemTexts } = convertToAnthropicMessages(request.messages, {
    ...(options.replayUnsignedThinking === undefined ? {} : { replayUnsignedThinking: options.replayUnsignedThinking }),
  });
  const segments = [
    ...systemPromptSegments(request.system),
    ...systemTexts.map((text) => ({ text, cacheBreakpoint: false })),
  ];
  const caching = segments.some((segment) => segment.cacheBreakpoint);
  const tools = prepareAnthropicTools(request.tools, request.toolChoice, { cacheBreakpoint: caching });
  const requestedMaxTokens = request.maxOutputTokens ?? options.defaultMaxOutputTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS;
  const thinking = mapThinking(request.thinking, requestedMaxTokens, request.model);
  const system = toSystem(segments, tools.tools === undefined ? MAX_CACHE_BREAKPOINTS : MAX_CACHE_BREAKPOINTS - 1);
  const userId = request.metadata?.user_id ?? request.metadata?.userId;

  const body: AnthropicRequestBody = {
    model: request.model,
    max_tokens: thinking.maxTokens,
    messages,
    ...(system === undefined ? {} : { system }),
    ...tools,
    ...(thinking.thinking === undefined ? {} : { thinking: thinking.thinking }),
    ...(thinking.outputConfig === undefined ? {} : { output_config: thinking.outputConfig }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.topP === undefined ? {} : { top_p: request.topP }),
    ...(request.stopSequences === undefined || request.stopSequences.length === 0
      ? {}
      : { stop_sequences: request.stopSequences }),
    ...(userId === undefined ? {} : { metadata: { user_id: userId } }),
  };
  const protocolOptions = request.providerOptions?.[ANTHROPIC_METADATA_KEY];
  const providerOptions =
    options.providerId === ANTHROPIC_METADATA_KEY ? undefined : request.providerOptions?.[options.providerId];
  return { ...body, ...protocolOptions, ...providerOptions } as AnthropicRequestBody;
}

interface MappedThinking {
  thinking?: AnthropicRequestBody['thinking'];
  outputConfig?: AnthropicRequestBody['output_config'];
  maxTokens: number;
}

function mapThinking(config: ThinkingConfig | undefined, maxTokens: number, model: string): MappedThinking {
  // Models this cannot place (an Anthropic-compatible server's own) keep the request's own form.
  const mapped = claudeThinkingRequest(config, model);
  switch (mapped?.type) {
    case undefined:
      return { maxTokens };
    case 'budget':
      return {
        thinking: { type: 'enabled', budget_tokens: mapped.budgetTokens },
        maxTokens: maxTokens > mapped.budgetTokens ? maxTokens : maxTokens + mapped.budgetTokens,
      };
    case 'adaptive':
      return { thinking: { type: 'adaptive' }, outputConfig: { effort: mapped.effort }, maxTokens };
    case 'disabled':
      return { thinking: { type: 'disabled' }, maxTokens };
  }
}

/** The `system` field: a string for one plain segment, else text blocks with up to `maxBreakpoints` markers. */
function toSystem(
  segments: readonly SystemPromptSegment[],
  maxBreakpoints: number,
): string | AnthropicSystemBlock[] | undefined {
  if (segments.length === 0) return undefined;
  const only = segments[0];
  if (segments.length === 1 && only !== undefined && !only.cacheBreakpoint) return only.text;
  const breakpoints = segments.flatMap((segment, index) => (segment.cacheBreakpoint ? [index] : []));
  const kept = new Set(breakpoints.slice(-maxBreakpoints));
  return segments.map((segment, index) => ({
    type: 'text',
    text: segment.text,
    ...(kept.has(index) ? { cache_control: { type: 'ephemeral' as const } } : {}),
  }));
}
