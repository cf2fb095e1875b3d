import { systemPromptText } from '../../shared/system-prompt.js';
import type { LlmRequest, ThinkingConfig, ThinkingEffort } from '../../spec/request.js';
import { convertToOpenAIResponsesInput } from './openai-responses-messages.js';
import { OPENAI_RESPONSES_METADATA_KEY } from './openai-responses-metadata.js';
import { prepareOpenAIResponsesTools } from './openai-responses-tools.js';

/** Reasoning summary detail the Responses API accepts. */
export type OpenAIReasoningSummary = 'auto' | 'concise' | 'detailed';

/** Adapter settings that shape the request body. */
export interface OpenAIResponsesRequestOptions {
  /** `store`: keep responses server-side. */
  store: boolean;
  /** `reasoning.summary` to ask for; none when undefined. */
  reasoningSummary?: OpenAIReasoningSummary | undefined;
  /** The provider id, whose `providerOptions` entry is merged too (after the protocol's). */
  providerId: string;
}

/**
 * Model families that reason (and so return reasoning items): o-series, GPT-5 and Codex, but not
 * the `-chat` variants. Non-reasoning models reject `include: ['reasoning.encrypted_content']`
 * ("Encrypted content is not supported with this model"), so it is only asked of these, or when the
 * request turns thinking on. Deployments with other names can pass `include` in `providerOptions`.
 */
const REASONING_MODEL = /^(?:o\d|gpt-5|codex)/i;

/** Whether `model` names a model family that reasons by default. */
export function isOpenAIReasoningModel(model: string): boolean {
  const name = model.slice(model.lastIndexOf('/') + 1);
  return REASONING_MODEL.test(name) && !/-chat\b/i.test(name);
}

/**
 * `reasoning.effort` for a thinking config: an effort as is; a token budget by size (under 4,096
 * `low`, under 16,384 `medium`, else `high`); `disabled` or none → undefined (the model's default;
 * send `reasoning: {effort: 'none'}` through `providerOptions` where a model accepts it).
 *
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-reasoning
 */
export function mapThinkingToEffort(thinking: ThinkingConfig | undefined): ThinkingEffort | undefined {
  switch (thinking?.type) {
    case 'effort':
      return thinking.effort;
    case 'enabled':
      if (thinking.budgetTokens < 4_096) return 'low';
      return thinking.budgetTokens < 16_384 ? 'medium' : 'high';
    default:
      return undefined;
  }
}

/**
 * Builds the `POST /responses` body (without `stream`) from a request:
 * - `instructions`: the system prompt as one text (cache-boundary segments joined: OpenAI caches
 *   prompt prefixes automatically, and the stable part comes first);
 * - `input`: the conversation (see `convertToOpenAIResponsesInput`);
 * - `tools` / `tool_choice`, `max_output_tokens`, `temperature`, `top_p`, `metadata`;
 * - `reasoning: {effort, summary}` from the thinking config and the summary setting;
 * - `store`, and with `store: false` on a reasoning model `include: ['reasoning.encrypted_content']`
 *   so reasoning can be replayed statelessly;
 * - then `providerOptions['openai-responses']` and `providerOptions[<provider id>]`, merged over
 *   everything (the escape hatch, e.g. `{parallel_tool_calls: false, service_tier: 'flex'}`).
 *
 * The Responses API has no stop sequences: `stopSequences` is not sent.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
export function buildOpenAIResponsesRequest(
  request: LlmRequest,
  options: OpenAIResponsesRequestOptions,
): Record<string, unknown> {
  const instructions = systemPromptText(request.system);
  const effort = mapThinkingToEffort(request.thinking);
  const reasons = effort !== undefined || isOpenAIReasoningModel(request.model);
  const reasoning = {
    ...(effort === undefined ? {} : { effort }),
    ...(options.reasoningSummary === undefined || !reasons ? {} : { summary: options.reasoningSummary }),
  };
  const body: Record<string, unknown> = {
    model: request.model,
    ...(instructions === '' ? {} : { instructions }),
    input: convertToOpenAIResponsesInput(request.messages, { store: options.store }),
    ...prepareOpenAIResponsesTools(request.tools, request.toolChoice),
    ...(request.maxOutputTokens === undefined ? {} : { max_output_tokens: request.maxOutputTokens }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.topP === undefined ? {} : { top_p: request.topP }),
    ...(Object.keys(reasoning).length === 0 ? {} : { reasoning }),
    ...(request.metadata === undefined ? {} : { metadata: request.metadata }),
    store: options.store,
    ...(!options.store && reasons ? { include: ['reasoning.encrypted_content'] } : {}),
  };
  const protocolOptions = request.providerOptions?.[OPENAI_RESPONSES_METADATA_KEY];
  const providerOptions =
    options.providerId === OPENAI_RESPONSES_METADATA_KEY ? undefined : request.providerOptions?.[options.providerId];
  return { ...body, ...protocolOptions, ...providerOptions };
}
