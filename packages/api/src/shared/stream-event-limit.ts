import { StreamEventTooLargeError } from '../spec/stream-protocol-errors.js';

/**
 * The default cap on one line or one event of a streamed body (SSE line, SSE event's joined data,
 * NDJSON line), in characters of decoded text (UTF-16 code units: bytes for ASCII; JSON escapes
 * keep vendor streams ASCII in practice): 32 MiB. Larger than any event a vendor sends (a base64
 * image part is a few MB), small enough that a runaway server cannot exhaust memory.
 */
export const DEFAULT_MAX_STREAM_EVENT_LENGTH = 32 * 1024 * 1024;

/** Options every streamed-body parser takes. */
export interface StreamEventLimitOptions {
  /** Cap on one line or event, in characters; default {@link DEFAULT_MAX_STREAM_EVENT_LENGTH}. */
  maxEventLength?: number;
  /** Named in the error when the cap is crossed. */
  providerId?: string;
}

/** The cap to apply: a positive integer, else the default (a bad value is a programmer error). */
export function resolveMaxEventLength(options: StreamEventLimitOptions | undefined): number {
  const value = options?.maxEventLength;
  if (value === undefined) return DEFAULT_MAX_STREAM_EVENT_LENGTH;
  if (!Number.isInteger(value) || value <= 0) {
    throw new RangeError(`maxEventLength must be a positive integer number of characters, got ${String(value)}.`);
  }
  return value;
}

/** The typed error for a crossed cap. */
export function streamEventTooLarge(
  unit: string,
  limit: number,
  providerId: string | undefined,
): StreamEventTooLargeError {
  return new StreamEventTooLargeError({
    ...(providerId === undefined ? {} : { providerId }),
    unit,
    limitBytes: limit,
    message: `${providerId === undefined ? 'The provider' : `Provider "${providerId}"`} sent one ${unit} longer than ${limit} characters, so the stream was ended before buffering more (the cap is the parser option maxEventLength, default ${DEFAULT_MAX_STREAM_EVENT_LENGTH}).`,
  });
}
