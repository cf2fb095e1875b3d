import { type Dispatcher, fetch as undiciFetch } from 'undici';
import { RedirectError } from '../spec/llm-error-classes.js';
import { getSharedHttpAgent } from './http-agent.js';
import { redactUrl } from './redact-secrets.js';
import { rememberHeaderSecrets } from './secret-registry.js';

/** The `fetch` signature the LLM SDKs (`@anthropic-ai/sdk`, `openai`) and the adapters accept. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Options of {@link createProviderFetch}. */
export interface ProviderFetchOptions {
  /** The connection pool; the shared agent (looked up per request) when omitted. */
  dispatcher?: Dispatcher;
  /** Named in redirect errors. */
  providerId?: string;
  /** Most same-origin redirects followed for one request. Default 5. */
  maxRedirects?: number;
}

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * Creates a `fetch` that sends through the shared keep-alive agent and never follows a redirect to
 * another origin: Node's fetch would forward `x-api-key`, `x-goog-api-key` and the body to the new
 * host. A same-origin redirect is followed (303, and 301/302 after POST, turn into a GET without a
 * body, as browsers do); a cross-origin one rejects with a {@link RedirectError}. Pass the result as
 * the SDKs' `fetch` option. A caller's `redirect: 'manual'` or `'error'` is respected.
 *
 * @example
 * const client = new Anthropic({ apiKey, fetch: createProviderFetch({ providerId: 'anthropic' }), maxRetries: 0 });
 */
export function createProviderFetch(options: ProviderFetchOptions = {}): FetchFunction {
  const maxRedirects = options.maxRedirects ?? 5;

  return async function providerFetch(input, init = {}) {
    let request = await toRequestParts(input, init);
    rememberHeaderSecrets(request.headers);
    const mode = init.redirect ?? 'follow';
    for (let redirects = 0; ; redirects += 1) {
      // Global fetch types (undici-types 6) and undici 7's differ only nominally; the values are compatible.
      const undiciInit = {
        ...init,
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
        redirect: 'manual',
        dispatcher: (init as { dispatcher?: Dispatcher }).dispatcher ?? options.dispatcher ?? getSharedHttpAgent(),
        ...(isStreamBody(request.body) ? { duplex: 'half' } : {}),
      } as unknown as Parameters<typeof undiciFetch>[1];
      const response = (await undiciFetch(request.url, undiciInit)) as unknown as Response;
      const location = response.headers.get('location');
      if (mode === 'manual' || !REDIRECT_STATUSES.has(response.status) || location === null) return response;
      await response.body?.cancel().catch(() => undefined);
      const target = new URL(location, request.url);
      const context = {
        location: redactUrl(target.href),
        status: response.status,
        url: redactUrl(request.url.href),
        ...(options.providerId === undefined ? {} : { providerId: options.providerId }),
      };
      const fail = (message: string) => new RedirectError({ ...context, message });
      if (target.origin !== request.url.origin) throw new RedirectError(context);
      if (mode === 'error') throw fail(`Redirected to ${redactUrl(target.href)} while redirect: 'error' was set.`);
      if (redirects >= maxRedirects) {
        throw fail(`More than ${maxRedirects} redirects, the last to ${redactUrl(target.href)}: check the base URL.`);
      }
      const becomesGet =
        response.status === 303 || ((response.status === 301 || response.status === 302) && request.method === 'POST');
      if (!becomesGet && isStreamBody(request.body)) {
        throw fail(
          `Redirected to ${redactUrl(target.href)} but the request body was a stream that cannot be sent twice: set the base URL to the final address.`,
        );
      }
      request = becomesGet ? asGetRequest(request, target) : { ...request, url: target };
    }
  };
}

type RequestBody = NonNullable<RequestInit['body']>;

interface RequestParts {
  url: URL;
  method: string;
  headers: Headers;
  body: RequestBody | undefined;
}

async function toRequestParts(input: string | URL | Request, init: RequestInit): Promise<RequestParts> {
  if (typeof input === 'string' || input instanceof URL) {
    const headers = new Headers(init.headers);
    const body = await encodeFormData(init.body ?? undefined, headers);
    return { url: new URL(input), method: (init.method ?? 'GET').toUpperCase(), headers, body };
  }
  const method = (init.method ?? input.method).toUpperCase();
  const headers = new Headers(input.headers);
  for (const [name, value] of new Headers(init.headers)) headers.set(name, value);
  const body = init.body ?? (method === 'GET' || method === 'HEAD' ? undefined : await input.arrayBuffer());
  return { url: new URL(input.url), method, headers, body: await encodeFormData(body, headers) };
}

/**
 * undici 7 does not recognise Node's built-in `FormData` (it would send "[object FormData]"), and the
 * SDKs build uploads with it: encode it to multipart bytes with Node's own `Response`.
 */
async function encodeFormData(body: RequestBody | undefined, headers: Headers): Promise<RequestBody | undefined> {
  if (typeof FormData === 'undefined' || !(body instanceof FormData)) return body;
  const encoded = new Response(body);
  const contentType = encoded.headers.get('content-type');
  if (contentType !== null) headers.set('content-type', contentType);
  return new Uint8Array(await encoded.arrayBuffer());
}

function asGetRequest(request: RequestParts, target: URL): RequestParts {
  const headers = new Headers(request.headers);
  for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) {
    headers.delete(name);
  }
  return { url: target, method: 'GET', headers, body: undefined };
}

function isStreamBody(body: RequestBody | undefined): boolean {
  if (body === undefined || body === null || typeof body === 'string') return false;
  return typeof (body as ReadableStream).getReader === 'function' || Symbol.asyncIterator in (body as object);
}
