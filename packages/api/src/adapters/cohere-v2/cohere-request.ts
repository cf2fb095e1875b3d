import type { LlmRequest, ThinkingConfig } from '../../spec/request.js';
import { convertToCohereMessages } from './cohere-messages.js';
import { prepareCohereTools } from './cohere-tools.js';
import type { CohereChatRequest } from './cohere-wire.js';

/** The protocol id: the key of Cohere data in provider metadata and `providerOptions`. */
export const COHERE_PROTOCOL_ID = 'cohere';

/**
 * Cohere's `thinking`: a budget is `{type: 'enabled', token_budget}`; an effort level (Cohere has
 * none) turns thinking on without a budget; `disabled` turns it off.
 *
 * @see https://docs.cohere.com/reference/chat#request.body.thinking
 */
export function cohereThinking(thinking: ThinkingConfig | undefined): CohereChatRequest['thinking'] {
  if (thinking === undefined) return undefined;
  switch (thinking.type) {
    case 'enabled':
      return { type: 'enabled', token_budget: thinking.budgetTokens };
    case 'effort':
      return { type: 'enabled' };
    case 'disabled':
      return { type: 'disabled' };
  }
}

/**
 * The body of `POST /v2/chat`: messages, tools and `tool_choice`, `max_tokens`, `temperature`, `p`,
 * `stop_sequences`, `thinking`, then `providerOptions.cohere` merged over the top (e.g. `k`, `seed`,
 * `safety_mode`, `documents`). Cohere has no per-request metadata field, so `metadata` is not sent.
 *
 * @see https://docs.cohere.com/reference/chat
 */
export function buildCohereRequest(request: LlmRequest, stream: boolean): CohereChatRequest {
  const body: CohereChatRequest = {
    model: request.model,
    messages: convertToCohereMessages(request.system, request.messages),
    stream,
    ...prepareCohereTools(request.tools, request.toolChoice),
  };
  if (request.maxOutputTokens !== undefined) body.max_tokens = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.p = request.topP;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) {
    body.stop_sequences = request.stopSequences;
  }
  const thinking = cohereThinking(request.thinking);
  if (thinking !== undefined) body.thinking = thinking;
  return { ...body, ...request.providerOptions?.[COHERE_PROTOCOL_ID] };
}
