/**
 * The protocol-neutral script language of the mock server.
 *
 * A script is written once and rendered in whichever wire protocol a request arrives in:
 * the same turn becomes an Anthropic `message`, an OpenAI `chat.completion`, a Gemini
 * `GenerateContentResponse`, a Bedrock Converse event stream, and so on.
 */

import type { ProtocolId } from '../protocols/protocol-id.js';

/** A block of content the scripted "model" returns. */
export type MockBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'redacted_thinking'; data: string }
  | {
      type: 'tool_call';
      /** Tool-call id; generated (`toolu_…`, `call_…`) when omitted. */
      id?: string;
      name: string;
      /** Parsed arguments. Ignored when `rawArguments` is given. */
      input?: unknown;
      /** The exact argument text to send, e.g. deliberately malformed JSON. */
      rawArguments?: string;
    };

/** Why the scripted model stopped, in neutral terms; each protocol maps it to its own value. */
export type MockStopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'refusal'
  | 'pause_turn'
  | 'content_filter';

/**
 * Token usage the response reports, in neutral terms; each protocol splits it its own way (Anthropic's
 * `input_tokens` leaves cached tokens out, OpenAI's `prompt_tokens` counts them in).
 */
export interface MockUsage {
  /** All input tokens, cached ones included. Default 10 (or cacheRead + cacheWrite when larger). */
  input?: number;
  /** All output tokens, reasoning included. Default: an estimate from the content. */
  output?: number;
  /** Input tokens read from the prompt cache (part of `input`). Default 0. */
  cacheRead?: number;
  /** Input tokens written to the prompt cache (part of `input`). Default 0. */
  cacheWrite?: number;
  /** Output tokens spent on reasoning (part of `output`). Default: an estimate from thinking blocks. */
  reasoning?: number;
}

/** How a streamed response is cut into pieces and paced. */
export interface MockChunking {
  /** Characters of text/thinking per delta event. Default 16. */
  textDelta?: number;
  /** Characters of tool-call argument JSON per delta event. Default 24. */
  argumentsDelta?: number;
  /**
   * Bytes per socket write. Default: one write per wire event (as a live stream arrives).
   * A number coalesces/splits the encoded stream into writes of that size.
   */
  writeBytes?: number;
  /** Milliseconds to wait between writes. Default 0. */
  delayMs?: number;
}

/** Vendor-neutral error categories; each protocol renders the vendor's own status, body and headers. */
export type MockErrorKind =
  | 'rate_limit'
  | 'overloaded'
  | 'quota'
  | 'context_overflow'
  | 'auth'
  | 'permission'
  | 'not_found'
  | 'invalid_request'
  | 'server';

/** An HTTP error response, rendered with the vendor's status code, error body and headers. */
export interface MockHttpErrorFault {
  kind: 'http_error';
  error: MockErrorKind;
  /** Override the vendor's usual status for this kind (e.g. 503 instead of 529 for overload). */
  status?: number;
  /** Override the vendor's usual message. */
  message?: string;
  /** Sent as `retry-after` (seconds). */
  retryAfterSeconds?: number;
  /** Sent as `retry-after-ms` where the vendor uses it, and in Gemini's RetryInfo. */
  retryAfterMs?: number;
  /** For `context_overflow`: the token counts written into the vendor's message. */
  requestedTokens?: number;
  limitTokens?: number;
}

/** A fault applied to a (streamed or not) response. */
export type MockFault =
  | MockHttpErrorFault
  /** Close the TCP connection abruptly after this many body bytes. */
  | { kind: 'reset'; afterBytes: number }
  /** End the stream cleanly but without its terminal event(s) (no message_stop / [DONE] / finishReason). */
  | { kind: 'truncate' }
  /**
   * Stop sending: after the headers (`afterEvents: 0`, the default) or after N wire events.
   * With `pingIntervalMs`, keep sending the vendor's keep-alive (SSE comment or ping event) and nothing else.
   * The connection is held open until the client gives up or the server closes.
   */
  | { kind: 'stall'; afterEvents?: number; pingIntervalMs?: number }
  /** Tool-call arguments cut short so they are not valid JSON. */
  | { kind: 'malformed_tool_arguments' }
  /** Every tool call in the turn gets the same id. */
  | { kind: 'duplicate_tool_ids' }
  /** Tool calls carry no id. */
  | { kind: 'missing_tool_ids' }
  /** After N wire events, send the vendor's in-stream error event and end the stream. */
  | { kind: 'mid_stream_error'; afterEvents?: number; error?: MockErrorKind; message?: string };

/** One response of the scripted model. */
export interface MockTurn {
  /** Shortcut for `content: [{type: 'text', text}]`. */
  text?: string;
  content?: MockBlock[];
  /** Defaults to `tool_use` when the turn has tool calls, otherwise `end_turn`. */
  stopReason?: MockStopReason;
  /** The raw stop value to send instead of the mapped one (to test unknown finish reasons). */
  rawStopReason?: string;
  usage?: MockUsage;
  /** Report this model name instead of the requested one. */
  model?: string;
  fault?: MockFault;
  chunking?: MockChunking;
}

/** Serve a recorded response file (the format of `shared/fixtures/provider-streams`). */
export interface MockReplay {
  /** Path of a `*.chunks.txt` (streamed) or `*.json` (whole body) file. */
  replay: string;
  /** The file's wire protocol; inferred from its folder name or content when omitted. */
  protocol?: ProtocolId;
  /**
   * Serve a `*.json` body with this HTTP status (a recorded error body such as Gemini's 429 with
   * `RetryInfo`), for streamed and non-streamed requests alike.
   */
  status?: number;
  chunking?: MockChunking;
  fault?: MockFault;
}

/** A step in a queue: a scripted turn or a recorded replay. */
export type MockStep = MockTurn | MockReplay;

/** Conditions a request must meet for a rule to serve it. All given conditions must hold. */
export interface MockMatch {
  /** Exact model name, or a `/regex/` string. */
  model?: string;
  protocol?: ProtocolId;
  /** Substring that must appear in the raw request body. */
  contains?: string;
  /** Only streamed (true) or only non-streamed (false) requests. */
  stream?: boolean;
}

/** A routing rule with its own queue of steps. */
export interface MockRule {
  match: MockMatch;
  steps: MockStep[];
  /** When the queue is used up, keep serving its last step. Default false. */
  repeatLast?: boolean;
}

/** A whole script: routing rules first, then the default queue. */
export interface MockScript {
  rules?: MockRule[];
  steps?: MockStep[];
  /** When the default queue is used up, keep serving its last step. Default false. */
  repeatLast?: boolean;
  /** Default pacing for every streamed step. */
  chunking?: MockChunking;
}
