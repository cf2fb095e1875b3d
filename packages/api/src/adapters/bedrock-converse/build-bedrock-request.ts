import { systemPromptSegments } from '../../shared/system-prompt.js';
import type { LlmRequest, ThinkingConfig, ThinkingEffort } from '../../spec/request.js';
import type { BedrockConverseRequest } from './bedrock-wire-types.js';
import { convertToBedrockPrompt } from './convert-bedrock-messages.js';
import { prepareBedrockTools } from './prepare-bedrock-tools.js';

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
export const BEDROCK_EFFORT_BUDGETS: Record<ThinkingEffort, number> = { low: 2_048, medium: 8_192, high: 24_576 };

/**
 * `additionalModelRequestFields.thinking` in the Anthropic form Claude on Bedrock takes
 * (`{type: 'enabled', budget_tokens}`); an effort level becomes a budget from
 * {@link BEDROCK_EFFORT_BUDGETS}, kept under `maxOutputTokens` (and at least Anthropic's minimum of
 * 1024). Other models' reasoning switches go in `providerOptions.bedrock.additionalModelRequestFields`.
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html
 */
export function bedrockThinking(
  thinking: ThinkingConfig | undefined,
  maxOutputTokens: number | undefined,
): Record<string, unknown> | undefined {
  if (thinking === undefined || thinking.type === 'disabled') return undefined;
  if (thinking.type === 'enabled') return { type: 'enabled', budget_tokens: thinking.budgetTokens };
  let budget = BEDROCK_EFFORT_BUDGETS[thinking.effort];
  if (maxOutputTokens !== undefined && budget >= maxOutputTokens) budget = Math.max(1_024, maxOutputTokens - 1);
  return { type: 'enabled', budget_tokens: budget };
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
  const thinking = bedrockThinking(request.thinking, request.maxOutputTokens);
  if (thinking !== undefined) body.additionalModelRequestFields = { thinking };
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
