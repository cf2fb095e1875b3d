import { checkToolInputValue, parseToolInput, type ToolInputParseResult } from '../../shared/tool-input.js';
import { UniqueToolCallIds as ToolCallIds } from '../../shared/unique-tool-call-ids.js';
import type { AssistantContentBlock } from '../../spec/message.js';
import type { ProviderMetadata } from '../../spec/provider-metadata.js';
import type { AssistantResponse } from '../../spec/response.js';
import { mapBedrockStopReason } from './bedrock-finish-reason.js';
import { BEDROCK_PROTOCOL_ID } from './bedrock-request.js';
import { mapBedrockUsage } from './bedrock-usage.js';
import type { ConverseResponse } from './bedrock-wire.js';

/**
 * A non-streamed Converse response as an {@link AssistantResponse}, block for block as received:
 * text, `reasoningContent.reasoningText` as thinking with its signature, `redactedContent` as redacted
 * thinking, and `toolUse` with its input checked against the tool-input limits (a JSON string in its
 * place, as a broken server may send, is parsed; what cannot be used becomes `inputError`). Tool-call
 * ids are made unique as in the stream. Metrics, additional response fields and a guardrail trace
 * ride on the message as `bedrock` provider metadata.
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_ResponseSyntax
 */
export function mapConverseResponse(
  body: ConverseResponse,
  context: { model: string; requestId?: string | undefined },
): AssistantResponse {
  const ids = new ToolCallIds();
  const content: AssistantContentBlock[] = [];
  (body.output?.message?.content ?? []).forEach((block, index) => {
    if (block.text !== undefined) {
      content.push({ type: 'text', text: block.text });
    } else if (block.reasoningContent?.reasoningText !== undefined) {
      const { text, signature } = block.reasoningContent.reasoningText;
      content.push({ type: 'thinking', thinking: text ?? '', ...(signature === undefined ? {} : { signature }) });
    } else if (block.reasoningContent?.redactedContent !== undefined) {
      content.push({ type: 'redacted_thinking', data: block.reasoningContent.redactedContent });
    } else if (block.toolUse !== undefined) {
      const parsed = toolInput(block.toolUse.input);
      content.push({
        type: 'tool_use',
        id: ids.next(block.toolUse.toolUseId, index),
        name: block.toolUse.name ?? '',
        ...(parsed.ok ? { input: parsed.input } : { input: {}, inputError: parsed.error }),
      });
    }
  });
  const metadata: Record<string, unknown> = {
    ...(body.metrics === undefined ? {} : { metrics: body.metrics }),
    ...(body.additionalModelResponseFields === undefined
      ? {}
      : { additionalModelResponseFields: body.additionalModelResponseFields }),
    ...(body.trace === undefined ? {} : { trace: body.trace }),
  };
  const providerMetadata: ProviderMetadata | undefined =
    Object.keys(metadata).length === 0 ? undefined : { [BEDROCK_PROTOCOL_ID]: metadata };
  return {
    ...(context.requestId === undefined ? {} : { id: context.requestId }),
    model: context.model,
    message: { role: 'assistant', content, ...(providerMetadata === undefined ? {} : { providerMetadata }) },
    finishReason: mapBedrockStopReason(body.stopReason),
    usage: mapBedrockUsage(body.usage),
  };
}

function toolInput(input: unknown): ToolInputParseResult {
  if (input === undefined) return { ok: true, input: {} };
  if (typeof input === 'string') return parseToolInput(input);
  return checkToolInputValue(input);
}
