import { type HeaderSource, readHeader } from './headers.js';

/**
 * How long the server asked to wait, from `retry-after-ms` (OpenAI, milliseconds) or `retry-after`
 * (seconds, or an HTTP date); `undefined` when neither is present or valid. A date in the past is 0.
 */
export function parseRetryAfterHeaders(
  headers: HeaderSource | undefined,
  now: number = Date.now(),
): number | undefined {
  const milliseconds = readHeader(headers, 'retry-after-ms');
  if (milliseconds !== undefined) {
    const value = Number(milliseconds.trim());
    if (milliseconds.trim() !== '' && Number.isFinite(value) && value >= 0) return Math.ceil(value);
  }
  const retryAfter = readHeader(headers, 'retry-after')?.trim();
  if (retryAfter === undefined || retryAfter === '') return undefined;
  if (/^\d+(?:\.\d+)?$/.test(retryAfter)) return Math.ceil(Number(retryAfter) * 1000);
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * The `retryDelay` of a Google `RetryInfo` detail in an error body (Gemini, Vertex AI), e.g.
 * `{"error": {"details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "34.4s"}]}}`,
 * in milliseconds. Accepts the body parsed or as text, and the array form Gemini sometimes sends.
 *
 * @see https://cloud.google.com/apis/design/errors#retryinfo
 */
export function parseRetryInfoDelay(body: unknown): number | undefined {
  const parsed = typeof body === 'string' ? tryParseJson(body) : body;
  const root = Array.isArray(parsed) ? parsed[0] : parsed;
  const error = isRecord(root) && isRecord(root.error) ? root.error : root;
  if (!isRecord(error) || !Array.isArray(error.details)) return undefined;
  for (const detail of error.details) {
    if (!isRecord(detail) || typeof detail.retryDelay !== 'string') continue;
    if (typeof detail['@type'] === 'string' && !detail['@type'].endsWith('RetryInfo')) continue;
    const delay = parseDuration(detail.retryDelay);
    if (delay !== undefined) return delay;
  }
  return undefined;
}

/** Parses a protobuf JSON `Duration` such as `"34.4s"` or `"2s"` into milliseconds. */
export function parseDuration(value: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)s\s*$/.exec(value);
  return match?.[1] === undefined ? undefined : Math.ceil(Number(match[1]) * 1000);
}

function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
