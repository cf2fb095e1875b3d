import { NetworkError } from '../spec/llm-error-classes.js';
import type { AdapterSettings } from './adapter-settings.js';
import { DEFAULT_STALL_OPTIONS, withStallTimeouts } from './stall-timeouts.js';

/**
 * Reads a whole (non-streamed) JSON body with the idle stall timer between chunks: a body that stops
 * arriving is a `stream_stall` (retried), and a body cut short, which is not JSON, is a retryable
 * network error rather than a parse exception.
 */
export async function readJsonBody(
  response: Response,
  controller: AbortController,
  settings: Pick<AdapterSettings, 'stall'>,
  providerId: string,
): Promise<unknown> {
  let text = '';
  if (response.body !== null) {
    const idleTimeoutMs =
      settings.stall === false ? 0 : (settings.stall?.idleTimeoutMs ?? DEFAULT_STALL_OPTIONS.idleTimeoutMs);
    const decoder = new TextDecoder();
    const chunks = withStallTimeouts(response.body, {
      controller,
      providerId,
      firstByteTimeoutMs: idleTimeoutMs,
      idleTimeoutMs,
    });
    for await (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
    text += decoder.decode();
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new NetworkError({
      providerId,
      cause: error,
      message: `The response from provider "${providerId}" was cut short (${text.length} characters, not valid JSON).`,
    });
  }
}
