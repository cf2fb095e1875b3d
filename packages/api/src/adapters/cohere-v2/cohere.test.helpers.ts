import type { LlmProvider } from '../../spec/provider.js';
import type { LlmRequest } from '../../spec/request.js';
import type { StreamEvent } from '../../spec/stream-event.js';

// Helpers of the Cohere adapter's tests.

/** A small request that every scripted turn answers. */
export const helloRequest: LlmRequest = {
  model: 'command-a-03-2025',
  maxOutputTokens: 256,
  messages: [{ role: 'user', content: 'Hello' }],
};

/** A test key (never real). */
export const testApiKey = 'cohere-test-key-0123456789';

/** Every event of one streamed call. */
export async function collect(provider: LlmProvider, request: LlmRequest = helloRequest, signal?: AbortSignal) {
  const events: StreamEvent[] = [];
  for await (const event of provider.streamMessage(request, signal === undefined ? {} : { signal })) {
    events.push(event);
  }
  return events;
}

export {
  eventShape,
  expectWellFormed,
  type ReceivedRequest,
  startLoopbackServer,
} from '../../test/adapter-test-helpers.js';
