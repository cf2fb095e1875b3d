import { type Dispatcher, request as undiciRequest } from 'undici';
import { RedirectError } from '../spec/llm-error-classes.js';
import { classifyHttpError } from './classify-http-error.js';
import { getSharedHttpAgent } from './http-agent.js';
import { redactUrl } from './redact-secrets.js';
import { rememberHeaderSecrets } from './secret-registry.js';
import type { SendRequestOptions } from './send-request.js';
import { toLlmError } from './to-llm-error.js';

/** Options of {@link sendStreamRequest}: those of `sendRequest`, with a dispatcher instead of a fetch. */
export interface SendStreamRequestOptions extends Omit<SendRequestOptions, 'fetch'> {
  /** The connection pool; the shared agent when omitted. */
  dispatcher?: Dispatcher;
  /** Most same-origin redirects followed. Default 5. Cross-origin redirects are never followed. */
  maxRedirects?: number;
}

/** A 2xx streaming response: status, headers and the body as raw byte chunks. */
export interface StreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body, one `Uint8Array` per network read. Stop iterating (or abort) to release it. */
  body: AsyncIterable<Uint8Array>;
}

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * Sends a streaming request with undici's `request()` on the shared keep-alive agent and returns the
 * body as raw byte chunks: no WHATWG `Response`, no `ReadableStream` hop per read, which is what a
 * token stream pays for on every network chunk (see the package benchmark). Non-2xx answers reject
 * with the classified `LlmError` (as {@link sendRequest}); transport failures with `network`,
 * `timeout` or `aborted`. A same-origin redirect is followed; a cross-origin one is a `RedirectError`,
 * because following it would hand the API key to another host.
 *
 * @example
 * const response = await sendStreamRequest({ providerId: 'acme', url, headers, body, signal, errorRules });
 * for await (const batch of readServerSentEventBatches(response.body)) handle(batch);
 */
export async function sendStreamRequest(options: SendStreamRequestOptions): Promise<StreamResponse> {
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
  let url = new URL(options.url);
  let method = options.method ?? (body === undefined ? 'GET' : 'POST');
  const maxRedirects = options.maxRedirects ?? 5;
  for (let redirects = 0; ; redirects += 1) {
    let response: Dispatcher.ResponseData;
    try {
      response = await undiciRequest(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        ...(body === undefined ? {} : { body }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        dispatcher: options.dispatcher ?? getSharedHttpAgent(),
      });
    } catch (error) {
      throw toLlmError(error, context);
    }
    const location = readLocation(response.headers);
    if (REDIRECT_STATUSES.has(response.statusCode) && location !== undefined) {
      await response.body.dump().catch(() => undefined);
      const target = new URL(location, url);
      const redirectContext = {
        providerId: options.providerId,
        location: redactUrl(target.href),
        status: response.statusCode,
        url: redactUrl(url.href),
      };
      if (target.origin !== url.origin) throw new RedirectError(redirectContext);
      if (redirects >= maxRedirects) {
        throw new RedirectError({
          ...redirectContext,
          message: `Provider "${options.providerId}" redirected more than ${maxRedirects} times; set the base URL to the final address.`,
        });
      }
      if (
        response.statusCode === 303 ||
        ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
      }
      url = target;
      continue;
    }
    if (response.statusCode >= 200 && response.statusCode < 300) {
      return { status: response.statusCode, headers: response.headers, body: response.body };
    }
    let errorBody: string;
    try {
      errorBody = await readBounded(response.body, options.maxErrorBodyBytes ?? 65_536);
    } catch (error) {
      throw toLlmError(error, context);
    }
    throw classifyHttpError({
      status: response.statusCode,
      headers: response.headers,
      body: errorBody,
      providerId: options.providerId,
      url: options.url,
      ...(options.errorRules === undefined ? {} : { rules: options.errorRules }),
      ...(options.knownSecrets === undefined ? {} : { knownSecrets: options.knownSecrets }),
    });
  }
}

function readLocation(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers.location;
  return Array.isArray(value) ? value[0] : value;
}

async function readBounded(body: Dispatcher.ResponseData['body'], limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    chunks.push(buffer);
    size += buffer.length;
    if (size >= limit) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}
