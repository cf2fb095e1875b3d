import type { Dispatcher } from 'undici';
import { RedirectError } from '../spec/llm-error-classes.js';
import { classifyHttpError } from './classify-http-error.js';
import { type DispatchedBody, type DispatchedResponse, dispatchStream, SUBSCRIBE_BODY } from './dispatched-body.js';
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

/** How much of a redirect's body is read (so its connection is reused) before the connection is dropped instead. */
const REDIRECT_BODY_BYTES = 131_072;

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * Sends a streaming request with undici's `dispatch()` (its own handler, see `dispatchStream`) on the
 * shared keep-alive agent and returns the body as raw byte chunks: no WHATWG `Response`, no
 * `ReadableStream` or `Readable` hop per read, which is what a
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
  let url = parseTarget(options.url);
  let method = options.method ?? (body === undefined ? 'GET' : 'POST');
  const maxRedirects = options.maxRedirects ?? 5;
  const dispatcher = options.dispatcher ?? getSharedHttpAgent();
  for (let redirects = 0; ; redirects += 1) {
    let response: DispatchedResponse;
    try {
      response = await dispatchStream(
        dispatcher,
        {
          origin: url.origin,
          path: url.path,
          method: method as Dispatcher.HttpMethod,
          headers,
          ...(body === undefined ? {} : { body }),
        },
        options.signal,
      );
    } catch (error) {
      throw toLlmError(error, context);
    }
    const status = response.status;
    const location = readLocation(response.headers);
    if (REDIRECT_STATUSES.has(status) && location !== undefined) {
      await readBounded(response.body, REDIRECT_BODY_BYTES).catch(() => undefined);
      const target = new URL(location, url.href);
      const redirectContext = {
        providerId: options.providerId,
        location: redactUrl(target.href),
        status,
        url: redactUrl(url.href),
      };
      if (target.origin !== url.origin) throw new RedirectError(redirectContext);
      if (redirects >= maxRedirects) {
        throw new RedirectError({
          ...redirectContext,
          message: `Provider "${options.providerId}" redirected more than ${maxRedirects} times; set the base URL to the final address.`,
        });
      }
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      url = { origin: target.origin, path: target.pathname + target.search, href: target.href };
      continue;
    }
    if (status >= 200 && status < 300) {
      return { status, headers: response.headers, body: response.body };
    }
    let errorBody: string;
    try {
      errorBody = await readBounded(response.body, options.maxErrorBodyBytes ?? 65_536);
    } catch (error) {
      throw toLlmError(error, context);
    }
    throw classifyHttpError({
      status,
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

/** A parsed request target: what undici's `dispatch()` takes, and the address redirects resolve against. */
interface Target {
  origin: string;
  path: string;
  href: string;
}

/** Targets parsed before, by URL string: a provider streams to the same few addresses every call. */
const targets = new Map<string, Target>();
const MAX_CACHED_TARGETS = 64;

function parseTarget(address: string): Target {
  let target = targets.get(address);
  if (target === undefined) {
    const url = new URL(address);
    target = { origin: url.origin, path: url.pathname + url.search, href: url.href };
    if (targets.size >= MAX_CACHED_TARGETS) targets.clear();
    targets.set(address, target);
  }
  return target;
}

/** Reads at most `limit` bytes of a body as text; a longer body is cut off (its connection dropped). */
function readBounded(body: DispatchedBody, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const text = () => Buffer.concat(chunks).subarray(0, limit).toString('utf8');
    body[SUBSCRIBE_BODY]({
      chunk(chunk) {
        const buffer =
          typeof chunk === 'string'
            ? Buffer.from(chunk)
            : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        chunks.push(buffer);
        size += buffer.length;
        if (size < limit) return true;
        resolve(text());
        return false;
      },
      end: () => resolve(text()),
      error: reject,
    });
  });
}
