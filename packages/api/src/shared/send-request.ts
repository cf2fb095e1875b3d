import type { HttpErrorRule } from './classify-http-error.js';
import { classifyHttpError } from './classify-http-error.js';
import { createProviderFetch, type FetchFunction } from './provider-fetch.js';
import { rememberHeaderSecrets } from './secret-registry.js';
import { toLlmError } from './to-llm-error.js';

/** Options of {@link sendRequest}. */
export interface SendRequestOptions {
  providerId: string;
  url: string;
  /** Default `POST` when there is a body, else `GET`. */
  method?: string;
  headers?: Record<string, string>;
  /** Sent as is when a string; otherwise serialized as JSON with `content-type: application/json`. */
  body?: unknown;
  signal?: AbortSignal;
  /** Default: a {@link createProviderFetch} on the shared agent. */
  fetch?: FetchFunction;
  /** The adapter's table of vendor error wording. */
  errorRules?: readonly HttpErrorRule[];
  /** Secrets to mask in error messages (the key in use). */
  knownSecrets?: readonly string[];
  /** Most bytes of an error body read for classification. Default 64 KiB. */
  maxErrorBodyBytes?: number;
}

/**
 * Sends one HTTP request to a provider and returns the response when it is 2xx; otherwise rejects
 * with the classified `LlmError` (see `classifyHttpError`), and a transport failure rejects with the
 * `toLlmError` classification (`network`, `timeout`, `aborted`). Cross-origin redirects are refused.
 *
 * @example
 * const response = await sendRequest({ providerId: 'acme', url: `${baseUrl}/v1/chat`, headers: { authorization: `Bearer ${key}` }, body, signal, errorRules: ACME_ERROR_RULES });
 * for await (const event of readServerSentEvents(response.body!)) handle(event);
 */
export async function sendRequest(options: SendRequestOptions): Promise<Response> {
  const fetch = options.fetch ?? createProviderFetch({ providerId: options.providerId });
  const headers: Record<string, string> = { ...options.headers };
  rememberHeaderSecrets(headers);
  let body: string | undefined;
  if (typeof options.body === 'string') body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
  }
  const context = {
    providerId: options.providerId,
    url: options.url,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.errorRules === undefined ? {} : { rules: options.errorRules }),
  };
  let response: Response;
  try {
    response = await fetch(options.url, {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      ...(body === undefined ? {} : { body }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    throw toLlmError(error, context);
  }
  if (response.ok) return response;
  let errorBody: string;
  try {
    errorBody = await readBoundedText(response, options.maxErrorBodyBytes ?? 65_536);
  } catch (error) {
    throw toLlmError(error, context);
  }
  throw classifyHttpError({
    status: response.status,
    headers: response.headers,
    body: errorBody,
    providerId: options.providerId,
    url: options.url,
    ...(options.errorRules === undefined ? {} : { rules: options.errorRules }),
    ...(options.knownSecrets === undefined ? {} : { knownSecrets: options.knownSecrets }),
  });
}

/** Reads at most `limit` bytes of a body as text and cancels the rest. */
async function readBoundedText(response: Response, limit: number): Promise<string> {
  if (response.body === null) return '';
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  const reader = response.body.getReader();
  try {
    while (bytes < limit) {
      const { value, done } = await reader.read();
      if (done) return text + decoder.decode();
      const chunk = value.byteLength + bytes > limit ? value.subarray(0, limit - bytes) : value;
      bytes += chunk.byteLength;
      text += decoder.decode(chunk, { stream: true });
    }
    return text + decoder.decode();
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
