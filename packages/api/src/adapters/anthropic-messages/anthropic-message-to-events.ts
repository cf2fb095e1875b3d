import type { StreamEvent } from '../../spec/stream-event.js';
import { AnthropicStreamDecoder, type AnthropicStreamDecoderOptions } from './anthropic-stream.js';
import type { AnthropicMessage } from './anthropic-wire.js';

/**
 * Converts a whole (non-streamed) message into stream events by replaying it through the stream
 * decoder as the events a stream of it would carry: `message_start` with the usage, each content
 * block as a `content_block_start` holding the complete block followed by its `content_block_stop`,
 * then `message_delta` with the stop reason and `message_stop`. `createMessage` and `streamMessage`
 * therefore share every rule (tool-call ids, argument parsing, server blocks, usage, finish reason).
 *
 * @see https://docs.claude.com/en/api/messages
 */
export function anthropicMessageToStreamEvents(
  message: AnthropicMessage,
  options: AnthropicStreamDecoderOptions,
): StreamEvent[] {
  const decoder = new AnthropicStreamDecoder(options);
  const events: StreamEvent[] = [];
  decoder.handle(
    { type: 'message_start', message: { id: message.id, model: message.model, usage: message.usage } },
    events,
  );
  message.content.forEach((block, index) => {
    decoder.handle({ type: 'content_block_start', index, content_block: block }, events);
    decoder.handle({ type: 'content_block_stop', index }, events);
  });
  decoder.handle(
    {
      type: 'message_delta',
      delta: {
        stop_reason: message.stop_reason,
        stop_sequence: message.stop_sequence,
        stop_details: message.stop_details,
        container: message.container,
      },
    },
    events,
  );
  decoder.handle({ type: 'message_stop' }, events);
  return events;
}
