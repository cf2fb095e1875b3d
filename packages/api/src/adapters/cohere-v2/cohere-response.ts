import { parseToolInput } from '../../shared/tool-input.js';
import { UniqueToolCallIds as ToolCallIds } from '../../shared/unique-tool-call-ids.js';
import type { AssistantContentBlock } from '../../spec/message.js';
import type { AssistantResponse } from '../../spec/response.js';
import { mapCohereFinishReason } from './cohere-finish-reason.js';
import { COHERE_PROTOCOL_ID } from './cohere-request.js';
import { cohereMessageMetadata } from './cohere-stream.js';
import { mapCohereUsage } from './cohere-usage.js';
import type { CohereChatResponse } from './cohere-wire.js';

/**
 * A non-streamed Cohere v2 chat response as an {@link AssistantResponse}, in the order a stream of
 * it arrives: thinking content, then the `tool_plan` as a thinking block marked `cohere.toolPlan` (reasoning, not answer text), then
 * text content, then the tool calls (arguments parsed from their JSON text; what cannot be used
 * becomes `inputError`; ids made unique as in the stream). `billed_units` rides on the message as
 * `cohere` provider metadata.
 *
 * @see https://docs.cohere.com/reference/chat#response
 */
export function mapCohereResponse(body: CohereChatResponse, model: string): AssistantResponse {
  const message = body.message;
  const content: AssistantContentBlock[] = [];
  const items = message?.content ?? [];
  for (const item of items) {
    if (item.type === 'thinking') content.push({ type: 'thinking', thinking: item.thinking ?? '' });
  }
  if (message?.tool_plan !== undefined && message.tool_plan !== '') {
    content.push({
      type: 'thinking',
      thinking: message.tool_plan,
      providerMetadata: { [COHERE_PROTOCOL_ID]: { toolPlan: true } },
    });
  }
  for (const item of items) {
    if (item.type !== 'thinking' && item.text !== undefined) content.push({ type: 'text', text: item.text });
  }
  const ids = new ToolCallIds();
  (message?.tool_calls ?? []).forEach((call, index) => {
    const parsed = parseToolInput(call.function?.arguments ?? '');
    content.push({
      type: 'tool_use',
      id: ids.next(call.id, index),
      name: call.function?.name ?? '',
      ...(parsed.ok ? { input: parsed.input } : { input: {}, inputError: parsed.error }),
    });
  });
  const providerMetadata = cohereMessageMetadata(body.usage);
  return {
    ...(body.id === undefined ? {} : { id: body.id }),
    model,
    message: { role: 'assistant', content, ...(providerMetadata === undefined ? {} : { providerMetadata }) },
    finishReason: mapCohereFinishReason(body.finish_reason),
    usage: mapCohereUsage(body.usage),
  };
}
