import type { AssistantResponse } from '../spec/response.js';
import type { StreamEvent } from '../spec/stream-event.js';

/**
 * Replays a complete response as the event sequence a stream of it would produce (one delta per
 * block), the inverse of `assembleMessage`. Adapters whose vendor answers a call in one piece use it
 * to offer `streamMessage`; fakes and tests use it to script providers.
 *
 * @example
 * async function* streamMessage(request, options) { yield* responseToStreamEvents(await createMessage(request, options)); }
 */
export function responseToStreamEvents(response: AssistantResponse): StreamEvent[] {
  const messageMetadata = response.message.providerMetadata;
  const events: StreamEvent[] = [
    {
      type: 'message-start',
      ...(response.id === undefined ? {} : { id: response.id }),
      ...(response.model === undefined ? {} : { model: response.model }),
    },
  ];
  response.message.content.forEach((block, index) => {
    const blockId = String(index);
    const metadata = block.providerMetadata === undefined ? {} : { providerMetadata: block.providerMetadata };
    switch (block.type) {
      case 'text':
        events.push({ type: 'text-start', blockId });
        events.push({ type: 'text-delta', blockId, delta: block.text });
        events.push({ type: 'text-end', blockId, ...metadata });
        break;
      case 'thinking':
        events.push({ type: 'thinking-start', blockId });
        events.push({ type: 'thinking-delta', blockId, delta: block.thinking });
        events.push({
          type: 'thinking-end',
          blockId,
          ...(block.signature === undefined ? {} : { signature: block.signature }),
          ...metadata,
        });
        break;
      case 'redacted_thinking':
        events.push({ type: 'redacted-thinking', blockId, data: block.data, ...metadata });
        break;
      case 'tool_use':
        events.push({ type: 'tool-call-start', blockId, toolCallId: block.id, toolName: block.name });
        events.push({ type: 'tool-call-input-delta', blockId, delta: JSON.stringify(block.input) });
        events.push({
          type: 'tool-call-end',
          blockId,
          toolCallId: block.id,
          toolName: block.name,
          input: block.input,
          ...(block.inputError === undefined ? {} : { inputError: block.inputError }),
          ...metadata,
        });
        break;
    }
  });
  events.push({
    type: 'message-end',
    finishReason: response.finishReason,
    usage: response.usage,
    ...(messageMetadata === undefined ? {} : { providerMetadata: messageMetadata }),
  });
  return events;
}
