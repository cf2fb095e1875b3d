import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { GatewayError } from '../gateway-error.js';
import type { GatewayEnv } from '../http/gateway-env.js';
import { createRateLimiter } from './rate-limiter.js';
import { isLoopbackHost, SECURITY_DEFAULTS, type SecurityOptions } from './security-options.js';
import type { TokenStore } from './token-store.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function hostName(hostHeader: string): string {
  const trimmed = hostHeader.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(0, trimmed.indexOf(']') + 1);
  return trimmed.split(':')[0] ?? '';
}

function remoteAddress(context: Context): string | undefined {
  try {
    return getConnInfo(context).remote.address;
  } catch {
    // Not served by @hono/node-server (app.request in tests, another runtime): one shared bucket.
    return undefined;
  }
}

/** What the guard needs to know about the server. */
export interface GuardOptions extends SecurityOptions {
  /** The address the server binds. */
  boundHost: string;
  tokens: TokenStore;
  /** The client address of a request (rate limit key without tokens); default the socket's remote address. */
  clientAddress?: (context: Context) => string | undefined;
  /**
   * Requests served without a token (the dashboard's page and its static assets, which hold no data):
   * the Host check and the rate limit still apply; the API calls the page makes need the token as usual.
   */
  isPublic?: (method: string, path: string) => boolean;
}

/**
 * The gateway's request guard, in order: Host allowlist (against DNS rebinding), Origin check on
 * state-changing requests and event streams, bearer token (unless not required), per-token rate
 * limit, and a body size limit (by `Content-Length`, and by counting for chunked bodies).
 */
export function securityGuard(options: GuardOptions): MiddlewareHandler<GatewayEnv> {
  const requireToken = options.requireToken ?? !isLoopbackHost(options.boundHost);
  const hosts = new Set([
    'localhost',
    '127.0.0.1',
    '[::1]',
    hostName(options.boundHost),
    ...(options.allowedHosts ?? []).map(hostName),
  ]);
  const origins = new Set((options.allowedOrigins ?? []).map((origin) => origin.toLowerCase().replace(/\/$/, '')));
  const limiter = createRateLimiter(options.requestsPerMinute ?? SECURITY_DEFAULTS.requestsPerMinute);
  const maxBody = options.maxBodyBytes ?? SECURITY_DEFAULTS.maxBodyBytes;
  return async (context, next) => {
    const request = context.req.raw;
    const host = context.req.header('host') ?? '';
    if (!hosts.has(hostName(host))) {
      throw new GatewayError({
        reason: 'forbidden',
        message:
          "This Host is not allowed: add it to the gateway's allowedHosts if the server is meant to answer to it.",
      });
    }
    const origin = context.req.header('origin');
    const isStream = context.req.method === 'GET' && /\/events$/.test(new URL(request.url).pathname);
    if (origin !== undefined && (STATE_CHANGING.has(context.req.method) || isStream)) {
      const normalized = origin.toLowerCase().replace(/\/$/, '');
      const own = [`http://${host.toLowerCase()}`, `https://${host.toLowerCase()}`];
      if (!own.includes(normalized) && !origins.has(normalized)) {
        throw new GatewayError({
          reason: 'forbidden',
          message: "Cross-origin request refused: add the page's origin to the gateway's allowedOrigins to allow it.",
        });
      }
    }
    let tokenName: string | undefined;
    const authorization = context.req.header('authorization');
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    tokenName = match?.[1] === undefined ? undefined : options.tokens.verify(match[1]);
    if (requireToken && options.isPublic?.(context.req.method, context.req.path) !== true) {
      if (tokenName === undefined) {
        throw new GatewayError({
          reason: 'unauthorized',
          message:
            'A valid bearer token is required: send "Authorization: Bearer <token>" (create one with `boxagnts token create <name>`).',
        });
      }
    }
    context.set('tokenName', tokenName);
    const key =
      tokenName === undefined
        ? `address:${(options.clientAddress ?? remoteAddress)(context) ?? 'local'}`
        : `token:${tokenName}`;
    const wait = limiter.take(key);
    if (wait > 0) {
      throw new GatewayError({
        reason: 'rate-limited',
        message: `Too many requests: wait ${wait} s.`,
        retryAfterSeconds: wait,
      });
    }
    const length = Number(context.req.header('content-length') ?? '0');
    if (Number.isFinite(length) && length > maxBody) {
      throw new GatewayError({
        reason: 'payload-too-large',
        message: `The body is ${length} bytes; at most ${maxBody} are accepted.`,
      });
    }
    await next();
  };
}
