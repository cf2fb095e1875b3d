import type { Dispatcher } from 'undici';
import type { AddressPolicy } from './address-policy.js';
import { type AllowedHost, isUrlAllowed } from './allowed-hosts.js';
import { findBlockedAddressError } from './guarded-agent.js';
import { parseIp } from './ip-address.js';
import { ACCEPT_ENCODING, discard } from './read-body.js';

/** Why a fetch was refused or failed before a final response arrived. */
export type FetchRefusal =
  | 'bad-url'
  | 'scheme'
  | 'not-allowed'
  | 'blocked-address'
  | 'downgrade'
  | 'too-many-redirects'
  | 'aborted'
  | 'network';

/** The final response (after redirects), or why there is none. */
export type FetchOutcome =
  | {
      ok: true;
      url: URL;
      status: number;
      headers: Record<string, string | string[] | undefined>;
      body: Dispatcher.ResponseData['body'];
      /** Every URL that answered with a redirect, in order. */
      redirects: string[];
    }
  | { ok: false; reason: FetchRefusal; message: string; redirects: string[] };

/** What {@link fetchFollowingRedirects} needs: the policy, the connection agent, and request details. */
export interface FetchRequest {
  url: URL;
  allowed: readonly AllowedHost[];
  addresses: AddressPolicy;
  dispatcher: Dispatcher;
  signal: AbortSignal;
  maxRedirects: number;
  userAgent: string;
  accept: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function suggestedEntry(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

/**
 * Checks one hop's URL before any connection: http or https only, allowed by the allowlist, and
 * (for an IP literal, which needs no DNS) not a blocked address. Host names are checked again
 * on their resolved addresses when the socket connects.
 */
export function checkUrl(
  url: URL,
  allowed: readonly AllowedHost[],
  addresses: AddressPolicy,
): { reason: FetchRefusal; message: string } | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      reason: 'scheme',
      message: `web_fetch only fetches http and https URLs, not "${url.protocol}" (${url.href}).`,
    };
  }
  if (url.hostname === '') return { reason: 'bad-url', message: `The URL ${url.href} has no host.` };
  if (!isUrlAllowed(url, allowed)) {
    return {
      reason: 'not-allowed',
      message: `${url.origin} is not in web_fetch's allowed hosts (${allowed.map((entry) => entry.original).join(', ')}). The host can allow it by adding "${suggestedEntry(url)}" to allowedHosts.`,
    };
  }
  const literal = parseIp(url.hostname);
  if (literal !== undefined) {
    const reason = addresses.check(url.hostname);
    if (reason !== undefined) {
      return {
        reason: 'blocked-address',
        message: `${url.hostname} is a ${reason} address; web_fetch only connects to public addresses.`,
      };
    }
  }
  return undefined;
}

function basicAuthorization(url: URL): string | undefined {
  if (url.username === '' && url.password === '') return undefined;
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

function withoutCredentials(url: URL): URL {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  copy.hash = '';
  return copy;
}

function describeError(url: URL, error: unknown): { reason: FetchRefusal; message: string } {
  const blocked = findBlockedAddressError(error);
  if (blocked !== undefined) return { reason: 'blocked-address', message: blocked.message };
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  return {
    reason: 'network',
    message: `Could not fetch ${url.href}: ${message}${typeof code === 'string' ? ` (${code})` : ''}.`,
  };
}

/**
 * GETs a URL and follows redirects by hand, re-checking every hop (scheme, allowlist, address),
 * refusing https -> http downgrades, and sending the first URL's user info (as Basic auth) only to
 * the first URL's origin. The caller reads or destroys the returned body.
 */
export async function fetchFollowingRedirects(fetch: FetchRequest): Promise<FetchOutcome> {
  const authorization = basicAuthorization(fetch.url);
  const origin = fetch.url.origin;
  const redirects: string[] = [];
  let current = withoutCredentials(fetch.url);
  for (;;) {
    const refusal = checkUrl(current, fetch.allowed, fetch.addresses);
    if (refusal !== undefined) return { ok: false, ...refusal, redirects };
    const headers: Record<string, string> = {
      'user-agent': fetch.userAgent,
      accept: fetch.accept,
      'accept-encoding': ACCEPT_ENCODING,
    };
    if (authorization !== undefined && current.origin === origin) headers.authorization = authorization;
    let response: Dispatcher.ResponseData;
    try {
      const { request } = await import('undici');
      response = await request(current, { dispatcher: fetch.dispatcher, method: 'GET', headers, signal: fetch.signal });
    } catch (error) {
      if (fetch.signal.aborted) return { ok: false, reason: 'aborted', message: 'The fetch was aborted.', redirects };
      return { ok: false, ...describeError(current, error), redirects };
    }
    const location = response.headers.location;
    const target = Array.isArray(location) ? location[0] : location;
    if (!REDIRECT_STATUSES.has(response.statusCode) || target === undefined) {
      return {
        ok: true,
        url: current,
        status: response.statusCode,
        headers: response.headers,
        body: response.body,
        redirects,
      };
    }
    discard(response.body);
    redirects.push(current.href);
    if (redirects.length > fetch.maxRedirects) {
      return {
        ok: false,
        reason: 'too-many-redirects',
        message: `Stopped after ${fetch.maxRedirects} redirects (last one from ${current.href}).`,
        redirects,
      };
    }
    let next: URL;
    try {
      next = new URL(target, current);
    } catch {
      return {
        ok: false,
        reason: 'bad-url',
        message: `${current.href} redirected to an invalid URL: ${JSON.stringify(target)}.`,
        redirects,
      };
    }
    if (current.protocol === 'https:' && next.protocol === 'http:') {
      return {
        ok: false,
        reason: 'downgrade',
        message: `${current.href} redirected from https to plain http (${next.href}); web_fetch refuses downgrades.`,
        redirects,
      };
    }
    current = withoutCredentials(next);
  }
}
