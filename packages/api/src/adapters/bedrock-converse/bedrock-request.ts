import { CLAUDE_EFFORT_BUDGETS, claudeThinkingRequest } from '../../shared/claude-thinking.js';
import { systemPromptSegments } from '../../shared/system-prompt.js';
import type { LlmRequest, ThinkingConfig, ThinkingEffort } from '../../spec/request.js';
import { convertToBedrockPrompt } from './bedrock-messages.js';
import { prepareBedrockTools } from './bedrock-tools.js';
import type { BedrockConverseRequest } from './bedrock-wire.js';

/** The protocol id: the key of Bedrock data in provider metadata and `providerOptions`. */
export const BEDROCK_PROTOCOL_ID = 'bedrock';

/**
 * Whether to send `cachePoint` markers. Bedrock rejects them for models without prompt caching
 * ("You invoked an unsupported model or your request did not allow prompt caching"), so by default
 * they go only to model ids known to cache: Claude from 3.5 Haiku / 3.7 on (not Claude 3 Opus /
 * Sonnet / Haiku, v2, Instant) and Amazon Nova. Application inference profile ARNs do not name the
 * model: pass `promptCaching: true` for them.
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html#prompt-caching-models
 */
export function bedrockCachesPrompts(modelId: string, promptCaching: boolean | undefined): boolean {
  if (promptCaching !== undefined) return promptCaching;
  if (/amazon\.nova/i.test(modelId)) return true;
  if (!/anthropic\.claude/i.test(modelId)) return false;
  return !/claude-(?:v2|instant|3-(?:opus|sonnet|haiku))/i.test(modelId);
}

/** Amazon Nova caches system and messages but takes no `cachePoint` among tools. */
function bedrockCachesTools(modelId: string): boolean {
  return !/amazon\.nova/i.test(modelId);
}

/** Thinking budgets for an effort level, for Anthropic models that take a budget only. */
export const BEDROCK_EFFORT_BUDGETS: Record<ThinkingEffort, number> = CLAUDE_EFFORT_BUDGETS;

/** Answer tokens added above a thinking budget when the request set no `maxOutputTokens`. */
export const BEDROCK_ANSWER_TOKENS_WITHOUT_LIMIT = 4_096;

/** The thinking fields for Claude on Bedrock, and the `maxTokens` to send with them. */
export interface BedrockThinkingFields {
  fields: Record<string, unknown>;
  maxTokens: number | undefined;
}

/**
 * `additionalModelRequestFields` for thinking in the Anthropic form Claude on Bedrock takes, per
 * model (`claudeThinkingStyle`): a budget `{thinking: {type: 'enabled', budget_tokens}}` for Claude
 * 4.5 and older (an effort becomes a budget from {@link BEDROCK_EFFORT_BUDGETS}); adaptive
 * `{thinking: {type: 'adaptive'}, output_config: {effort}}` for an effort on Claude 4.6 and for
 * anything on Opus 4.7 and later. A budget is at least 1024 and always below `maxTokens`: when
 * `maxOutputTokens` does not exceed it, the budget is added to `maxTokens` (as on the Anthropic
 * API); without `maxOutputTokens`, `maxTokens` is the budget + {@link BEDROCK_ANSWER_TOKENS_WITHOUT_LIMIT}. Other models' reasoning switches go in `providerOptions.bedrock.additionalModelRequestFields`.
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html
 * Adaptive thinking on Bedrock is assumed to take the Anthropic API's fields unchanged (not checked against a live endpoint).
 */
export function bedrockThinkingFields(
  thinking: ThinkingConfig | undefined,
  maxOutputTokens: number | undefined,
  modelId: string,
): BedrockThinkingFields | undefined {
  if (thinking === undefined || thinking.type === 'disabled') return undefined;
  const mapped = claudeThinkingRequest(thinking, modelId, 'budget');
  if (mapped === undefined || mapped.type === 'disabled') return undefined;
  if (mapped.type === 'adaptive') {
    return {
      fields: { thinking: { type: 'adaptive' }, output_config: { effort: mapped.effort } },
      maxTokens: maxOutputTokens,
    };
  }
  const budget = mapped.budgetTokens;
  // Without maxOutputTokens the model's default could be below the budget: send one that fits.
  const maxTokens =
    maxOutputTokens === undefined
      ? budget + BEDROCK_ANSWER_TOKENS_WITHOUT_LIMIT
      : maxOutputTokens <= budget
        ? maxOutputTokens + budget
        : maxOutputTokens;
  return { fields: { thinking: { type: 'enabled', budget_tokens: budget } }, maxTokens };
}

/**
 * The `thinking` field alone (kept for callers of earlier versions); prefer
 * {@link bedrockThinkingFields}, which also fits `maxTokens` and knows adaptive-only models.
 */
export function bedrockThinking(
  thinking: ThinkingConfig | undefined,
  maxOutputTokens: number | undefined,
  modelId = '',
): Record<string, unknown> | undefined {
  return bedrockThinkingFields(thinking, maxOutputTokens, modelId)?.fields.thinking as
    | Record<string, unknown>
    | undefined;
}

/**
 * The Converse request body: messages and system (with cache points when the system prompt has a
 * cache boundary and the model caches), `toolConfig` (with a cache point after the tools then too),
 * `inferenceConfig` (`maxTokens`, `temperature`, `topP`, `stopSequences`), thinking in
 * `additionalModelRequestFields`, `metadata` as `requestMetadata`, and finally
 * `providerOptions.bedrock` merged over the top (its `additionalModelRequestFields` merged one level
 * deep, so a thinking setting survives an extra field).
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 */
export function buildBedrockRequest(
  request: LlmRequest,
  options: { promptCaching?: boolean | undefined },
): BedrockConverseRequest {
  const caching = bedrockCachesPrompts(request.model, options.promptCaching);
  const hasBoundary = systemPromptSegments(request.system).some((segment) => segment.cacheBreakpoint);
  const prompt = convertToBedrockPrompt(request.system, request.messages, { cacheMarkers: caching });
  const body: BedrockConverseRequest = { messages: prompt.messages };
  if (prompt.system.length > 0) body.system = prompt.system;
  const inferenceConfig = {
    ...(request.maxOutputTokens === undefined ? {} : { maxTokens: request.maxOutputTokens }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.topP === undefined ? {} : { topP: request.topP }),
    ...(request.stopSequences === undefined || request.stopSequences.length === 0
      ? {}
      : { stopSequences: request.stopSequences }),
  };
  if (Object.keys(inferenceConfig).length > 0) body.inferenceConfig = inferenceConfig;
  const toolConfig = prepareBedrockTools({
    tools: request.tools,
    toolChoice: request.toolChoice,
    toolNamesInHistory: prompt.toolNamesInHistory,
    cachePoint: caching && hasBoundary && bedrockCachesTools(request.model),
  });
  if (toolConfig !== undefined) body.toolConfig = toolConfig;
  const thinking = bedrockThinkingFields(request.thinking, request.maxOutputTokens, request.model);
  if (thinking !== undefined) {
    body.additionalModelRequestFields = thinking.fields;
    if (thinking.maxTokens !== undefined)
      body.inferenceConfig = { ...body.inferenceConfig, maxTokens: thinking.maxTokens };
  }
  if (request.metadata !== undefined && Object.keys(request.metadata).length > 0) {
    body.requestMetadata = request.metadata;
  }
  const extra = request.providerOptions?.[BEDROCK_PROTOCOL_ID];
  if (extra === undefined) return body;
  const { additionalModelRequestFields, ...rest } = extra;
  const merged: BedrockConverseRequest = { ...body, ...rest };
  if (isRecord(additionalModelRequestFields)) {
    merged.additionalModelRequestFields = { ...body.additionalModelRequestFields, ...additionalModelRequestFields };
  }
  return merged;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
