import type { MockErrorKind, MockHttpErrorFault, MockStopReason } from '../script/types.js';
import type { ProtocolId } from './protocol-id.js';

export { PROTOCOL_IDS, type ProtocolId } from './protocol-id.js';

/** A content block with everything a renderer needs decided (ids assigned, arguments serialised). */
export type ResolvedBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string | undefined }
  | { type: 'redacted_thinking'; data: string }
  | {
      type: 'tool_call';
      /** Undefined only under the `missing_tool_ids` fault: render the call without an id. */
      id: string | undefined;
      name: string;
      /** The exact argument JSON text to send (may be malformed under a fault). */
      arguments: string;
    };

/** A scripted turn after defaults and faults are applied; what a renderer turns into bytes. */
export interface ResolvedTurn {
  content: ResolvedBlock[];
  stopReason: MockStopReason;
  /** When set, send this exact vendor stop value instead of mapping `stopReason`. */
  rawStopReason: string | undefined;
  /** `input` counts every input token, cached ones included; `output` includes `reasoning`. */
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number; reasoning: number };
  /** The model name to report. */
  model: string;
  /** A response id unique per response (e.g. `msg_…`, `chatcmpl-…`, `resp_…`). */
  responseId: string;
  /** Characters of text/thinking per delta. */
  textDelta: number;
  /** Characters of tool-call arguments per delta. */
  argumentsDelta: number;
  /** Unix seconds for `created` fields. */
  created: number;
}

/** An error to render in a vendor's own shape. Status is decided by the renderer unless overridden. */
export interface ResolvedError extends Omit<MockHttpErrorFault, 'kind'> {
  error: MockErrorKind;
}

/** One event on the wire, before framing. */
export interface WireEvent {
  /** SSE `event:` field, for protocols that send one. */
  event?: string;
  /** The payload: SSE `data:` text, one NDJSON line, or an AWS event-stream message payload. */
  data: string;
  /** AWS event-stream `:event-type` (or `:exception-type` when `messageType` is `exception`). */
  eventType?: string;
  /** AWS event-stream `:message-type`. Default `event`. */
  messageType?: 'event' | 'exception';
  /** True for closing events that a `truncate` fault leaves out. */
  terminal?: boolean;
}

/** An HTTP error response. */
export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  /** JSON text of the body. */
  body: string;
}

/** What a renderer reads from an incoming request. */
export interface ParsedRequest {
  protocol: ProtocolId;
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined for GET. */
  body: unknown;
  rawBody: string;
  /** The model the request asked for ('' when it names none). */
  model: string;
  stream: boolean;
  /** OpenAI Chat: `stream_options.include_usage` was true. */
  includeUsage: boolean;
}

/** How a protocol's route is recognised and what it says about the request. */
export interface RouteMatch {
  model: string;
  stream: boolean;
  includeUsage?: boolean;
}

/** A wire protocol: routing, rendering of responses, streams and errors. */
export interface ProtocolRenderer {
  id: ProtocolId;
  /** How streamed events are framed on the wire. */
  framing: 'sse' | 'ndjson' | 'aws-eventstream';
  /** Content type of a streamed response. */
  streamContentType: string;
  /**
   * Recognise a generation request by method and path (and parsed body); undefined when not ours.
   * Paths are matched by suffix so vendor prefixes (Azure deployments, DashScope, Vertex) work.
   */
  matchRoute(method: string, path: string, body: unknown): RouteMatch | undefined;
  /** The whole non-streamed response body. */
  renderResponse(turn: ResolvedTurn, request: ParsedRequest): unknown;
  /** The streamed response, in order; closing events flagged `terminal`. */
  renderStream(turn: ResolvedTurn, request: ParsedRequest): WireEvent[];
  /** An HTTP error in the vendor's shape, with its headers (`retry-after`, request ids, ...). */
  renderError(error: ResolvedError, request: ParsedRequest | undefined): ErrorResponse;
  /** The vendor's in-stream error event; `eventsSent` is how many events of the stream went before it. */
  renderStreamError(error: ResolvedError, request: ParsedRequest, context?: { eventsSent?: number }): WireEvent;
  /**
   * A recorded stream (one payload per line, the `shared/fixtures/provider-streams` format) as wire
   * events, exactly as the vendor frames it (Anthropic `event:` names from the payload's `type`,
   * OpenAI's closing `[DONE]`, Bedrock's event types from each line's single key, ...).
   */
  replayStream(lines: string[]): WireEvent[];
  /** The vendor's keep-alive: a ping event, or undefined for an SSE comment line (`: ping`). */
  keepAlive(): WireEvent | undefined;
  /** Response headers the vendor always sends (e.g. `request-id`). */
  responseHeaders(requestId: string): Record<string, string>;
}
