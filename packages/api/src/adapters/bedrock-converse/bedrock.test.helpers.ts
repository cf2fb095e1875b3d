import type { LlmProvider } from '../../spec/provider.js';
import type { LlmRequest } from '../../spec/request.js';
import type { StreamEvent } from '../../spec/stream-event.js';

// Helpers of the Bedrock adapter's tests.

/** A small request that every scripted turn answers. */
export const helloRequest: LlmRequest = {
  model: 'anthropic.claude-sonnet-4-20250514-v1:0',
  maxOutputTokens: 256,
  messages: [{ role: 'user', content: 'Hello' }],
};

/** Test credentials (never real). */
export const testCredentials = { accessKeyId: 'AKIDTESTBEDROCK', secretAccessKey: 'test-secret-key-0123456789' };

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
