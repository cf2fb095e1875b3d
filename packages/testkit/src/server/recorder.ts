import type { IncomingHttpHeaders } from 'node:http';
import type { ProtocolId } from '../protocols/protocol.js';

/** A request the mock server received, kept so tests can assert what a client sent. */
export interface RecordedRequest {
  /** 1-based order of arrival. */
  index: number;
  method: string;
  path: string;
  /** Query parameters, secrets masked (`key=` for Gemini). */
  query: Record<string, string>;
  /** Lower-case header names; credentials masked as `***` plus their last 4 characters. */
  headers: Record<string, string>;
  /** The parsed JSON body; undefined for GET or a body that was not JSON. */
  body: unknown;
  /** The raw body text. */
  rawBody: string;
  /** The protocol the route belongs to; undefined for routes no protocol owns. */
  protocol: ProtocolId | undefined;
  model: string;
  stream: boolean;
  /** Which queue served it: `rule:<index>`, `default`, or undefined when nothing was served. */
  servedBy: string | undefined;
  receivedAt: Date;
}

const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'cookie',
  'x-amz-security-token',
  'ocp-apim-subscription-key',
]);

const SECRET_QUERY = new Set(['key', 'api_key', 'apikey', 'access_token']);

/** Mask a credential, keeping an auth scheme and the last four characters so tests can tell keys apart. */
export function maskSecret(value: string): string {
  const match = /^(Bearer|Basic|AWS4-HMAC-SHA256|Token)\s+(.*)$/i.exec(value);
  const scheme = match ? `${match[1]} ` : '';
  const secret = match ? (match[2] ?? '') : value;
  if (/^AWS4-HMAC-SHA256/i.test(scheme)) {
    // SigV4: the credential scope and signed headers are not secret; the signature is.
    return `${scheme}${secret.replace(/Signature=[0-9a-f]+/i, 'Signature=***')}`;
  }
  return secret.length >= 12 ? `${scheme}***${secret.slice(-4)}` : `${scheme}***`;
}

/** Copy headers with credentials masked. */
export function maskHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    result[name] = SECRET_HEADERS.has(name.toLowerCase()) ? maskSecret(value) : value;
  }
  return result;
}

/** Query parameters with credentials masked. */
export function maskQuery(query: URLSearchParams): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of query) result[name] = SECRET_QUERY.has(name.toLowerCase()) ? maskSecret(value) : value;
  return result;
}
