import { hasErrorMarker, isLlmError, LlmError, type LlmErrorSubclassOptions } from './llm-error.js';

const SPLICED_STREAM_MARKER: unique symbol = Symbol.for('boxagnts.api.error.spliced_stream');
const STREAM_EVENT_TOO_LARGE_MARKER: unique symbol = Symbol.for('boxagnts.api.error.stream_event_too_large');

/** How a stream showed that it carries more than one message. */
export type SplicedStreamKind = 'second-message-start' | 'changed-message-id';

function label(providerId: string | undefined): string {
  return providerId === undefined ? 'the provider' : `provider "${providerId}"`;
}

/**
 * One stream carried the start of a second message (a second Anthropic `message_start` or Responses
 * `response.created`, a chat chunk with another `id`) after content of the first. The two are never
 * merged: the stream ends with this error (reason `server`), so the loop cannot run a tool call that a
 * cut-off message left half-written.
 */
export class SplicedStreamError extends LlmError {
  readonly [SPLICED_STREAM_MARKER] = true;
  override name = 'SplicedStreamError';
  readonly kind: SplicedStreamKind;
  /** The id of the message the stream started with, when it had one. */
  readonly firstMessageId: string | undefined;
  /** The id the second message announced, when it had one. */
  readonly secondMessageId: string | undefined;

  constructor(
    options: LlmErrorSubclassOptions & { kind: SplicedStreamKind; firstMessageId?: string; secondMessageId?: string },
  ) {
    const ids =
      options.firstMessageId === undefined && options.secondMessageId === undefined
        ? ''
        : ` (${options.firstMessageId ?? 'no id'} then ${options.secondMessageId ?? 'no id'})`;
    super({
      ...options,
      reason: 'server',
      message:
        options.message ??
        `${label(options.providerId)} sent a second message in one stream${ids}; the messages were not merged and the stream was ended. Retry the request; if it keeps happening, a proxy between you and the vendor is splicing responses.`,
    });
    this.kind = options.kind;
    this.firstMessageId = options.firstMessageId;
    this.secondMessageId = options.secondMessageId;
  }
}

/**
 * One line or event of a stream (an SSE line or event, an NDJSON line, a Bedrock event-stream frame)
 * was larger than the limit, so it was not buffered further and the stream ended (reason `server`,
 * never retried: the same request would get the same answer).
 */
export class StreamEventTooLargeError extends LlmError {
  readonly [STREAM_EVENT_TOO_LARGE_MARKER] = true;
  override name = 'StreamEventTooLargeError';
  /** The limit that was crossed, in bytes. */
  readonly limitBytes: number;
  /** What was too large (`SSE line`, `SSE event`, `NDJSON line`, `event-stream frame`). */
  readonly unit: string;

  constructor(options: LlmErrorSubclassOptions & { limitBytes: number; unit: string }) {
    super({
      ...options,
      reason: 'server',
      isRetryable: false,
      message:
        options.message ??
        `${label(options.providerId)} sent one ${options.unit} larger than ${options.limitBytes} bytes, so the stream was ended; raise the adapter setting maxStreamEventBytes if this vendor really sends events that large.`,
    });
    this.limitBytes = options.limitBytes;
    this.unit = options.unit;
  }
}

/** Whether `value` is a {@link SplicedStreamError} (cross-realm). */
export const isSplicedStreamError = (value: unknown): value is SplicedStreamError =>
  isLlmError(value) && hasErrorMarker(value, SPLICED_STREAM_MARKER);

/** Whether `value` is a {@link StreamEventTooLargeError} (cross-realm). */
export const isStreamEventTooLargeError = (value: unknown): value is StreamEventTooLargeError =>
  isLlmError(value) && hasErrorMarker(value, STREAM_EVENT_TOO_LARGE_MARKER);
