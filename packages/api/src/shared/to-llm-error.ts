import { createLlmError } from '../spec/create-llm-error.js';
import { isLlmError, type LlmError } from '../spec/llm-error.js';
import { AbortedError, NetworkError, RequestTimeoutError } from '../spec/llm-error-classes.js';
import { classifyHttpError, type HttpErrorRule } from './classify-http-error.js';
import type { HeaderSource } from './headers.js';
import { redactSecrets, redactUrl } from './redact-secrets.js';

/** Context for {@link toLlmError}. */
export interface ToLlmErrorContext {
  providerId?: string;
  url?: string;
  /** The caller's signal: an abort while it is aborted is the caller's (`aborted`), otherwise a timeout. */
  signal?: AbortSignal;
  /** Vendor wording for errors that carry an HTTP status (SDK errors). */
  rules?: readonly HttpErrorRule[];
}

const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
]);

const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

const TIMEOUT_MESSAGES = /\btimed out\b|\btimeout\b/i;

const NETWORK_MESSAGES =
  /fetch failed|terminated|other side closed|socket hang up|socket closed|connection (?:reset|closed|refused)|network ?error|premature close/i;

/**
 * Converts anything thrown while calling a provider into an {@link LlmError}: an `LlmError` passes
 * through; an abort is `aborted` when the caller's signal fired and `timeout` otherwise; undici and
 * socket failures (`UND_ERR_*`, `ECONNRESET`, "other side closed", fetch's `terminated`) are
 * `network` or `timeout`; an error object with a numeric HTTP `status` (SDK API errors) is classified
 * like a response; anything else is `unknown`.
 */
export function toLlmError(error: unknown, context: ToLlmErrorContext = {}): LlmError {
  if (isLlmError(error)) return error;
  const base = {
    cause: error,
    ...(context.providerId === undefined ? {} : { providerId: context.providerId }),
    ...(context.url === undefined ? {} : { url: redactUrl(context.url) }),
  };
  const who = context.providerId === undefined ? 'the provider' : `provider "${context.providerId}"`;
  const chain = causeChain(error);

  if (context.signal?.aborted === true) {
    const reason: unknown = context.signal.reason;
    if (isLlmError(reason)) return reason;
    return new AbortedError(base);
  }
  const timedOut = chain.some(
    (link) => link.name === 'TimeoutError' || TIMEOUT_CODES.has(link.code ?? '') || TIMEOUT_MESSAGES.test(link.message),
  );
  if (timedOut) {
    const code = chain.find((link) => link.code !== undefined)?.code;
    return new RequestTimeoutError({
      ...base,
      message: `The request to ${who} timed out${code === undefined ? '' : ` (${code})`}: retry, or raise the transport timeouts (createHttpAgent / configureSharedHttpAgent).`,
    });
  }
  if (chain.some((link) => link.name === 'AbortError')) return new AbortedError(base);

  const httpError = asHttpError(error);
  if (httpError !== undefined) {
    return classifyHttpError({
      status: httpError.status,
      body: httpError.body,
      providerId: context.providerId ?? 'unknown',
      ...(httpError.headers === undefined ? {} : { headers: httpError.headers }),
      ...(context.url === undefined ? {} : { url: context.url }),
      ...(context.rules === undefined ? {} : { rules: context.rules }),
    });
  }

  const networkLink = chain.find(
    (link) =>
      NETWORK_CODES.has(link.code ?? '') ||
      (link.code?.startsWith('UND_ERR_') ?? false) ||
      NETWORK_MESSAGES.test(link.message),
  );
  const detail = redactSecrets(chain.map((link) => link.code ?? link.message).join(': '));
  if (networkLink !== undefined) {
    return new NetworkError({
      ...base,
      message: `Network failure talking to ${who} (${detail}): check connectivity and the base URL; the call is retried when safe.`,
    });
  }
  return createLlmError({
    ...base,
    reason: 'unknown',
    message: `Unexpected failure calling ${who}: ${detail || 'no details'}.`,
  });
}

interface ChainLink {
  name: string;
  message: string;
  code: string | undefined;
}

function causeChain(error: unknown): ChainLink[] {
  const links: ChainLink[] = [];
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && links.length < 8) {
    const record = current as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown };
    links.push({
      name: typeof record.name === 'string' ? record.name : '',
      message: typeof record.message === 'string' ? record.message : '',
      code: typeof record.code === 'string' ? record.code : undefined,
    });
    if (record.cause === current) break;
    current = record.cause;
  }
  if (links.length === 0 && error !== undefined) links.push({ name: '', message: String(error), code: undefined });
  return links;
}

function asHttpError(error: unknown): { status: number; headers?: HeaderSource; body: unknown } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const record = error as { status?: unknown; headers?: unknown; error?: unknown; body?: unknown; message?: unknown };
  if (typeof record.status !== 'number' || record.status < 400 || record.status > 599) return undefined;
  const headers =
    typeof record.headers === 'object' && record.headers !== null ? (record.headers as HeaderSource) : undefined;
  return {
    status: record.status,
    body: record.error ?? record.body ?? record.message,
    ...(headers === undefined ? {} : { headers }),
  };
}
