import { encodeEventStreamMessage } from './aws-eventstream.js';
import { bedrockErrorResponse, bedrockStreamError } from './bedrock-errors.js';
import { mapBedrockStopReason } from './bedrock-stop-reason.js';
import { splitText } from './chunks.js';
import type { ProtocolRenderer, ResolvedBlock, ResolvedTurn, WireEvent } from './protocol.js';

/**
 * Amazon Bedrock Converse (`POST /model/{modelId}/converse`) and ConverseStream
 * (`POST /model/{modelId}/converse-stream`, an `application/vnd.amazon.eventstream` body).
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 */

const ROUTE = /\/model\/(.+)\/(converse|converse-stream)$/;

/** The mock answers at once; Converse requires a latency figure, so a plausible constant is reported. */
const LATENCY_MS = 120;

const encoder = new TextEncoder();

function decodeModelId(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * A non-streamed `toolUse.input` is a JSON document. Malformed argument text (the
 * `malformed_tool_arguments` fault) is sent as a JSON string in its place, the closest a broken
 * server gets: clients that expect an object see the damage instead of an emptied call.
 */
function toolInput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toolUse(block: Extract<ResolvedBlock, { type: 'tool_call' }>, input?: unknown): Record<string, unknown> {
  const use: Record<string, unknown> = {};
  if (block.id !== undefined) use.toolUseId = block.id;
  use.name = block.name;
  if (input !== undefined) use.input = input;
  return use;
}

function contentBlock(block: ResolvedBlock): Record<string, unknown> {
  switch (block.type) {
    case 'text':
      return { text: block.text };
    case 'thinking': {
      const reasoningText: Record<string, unknown> = { text: block.thinking };
      if (block.signature !== undefined) reasoningText.signature = block.signature;
      return { reasoningContent: { reasoningText } };
    }
    case 'redacted_thinking':
      // A blob, base64 in JSON; the opaque data is passed through as it is.
      return { reasoningContent: { redactedContent: block.data } };
    case 'tool_call':
      return { toolUse: toolUse(block, toolInput(block.arguments)) };
  }
}

/**
 * Converse `usage`. Bedrock's `inputTokens` leaves out the tokens read from or written to the
 * prompt cache, which the neutral `input` includes; `totalTokens` counts them all.
 */
export function bedrockUsage(usage: ResolvedTurn['usage']): Record<string, number> {
  return {
    inputTokens: Math.max(0, usage.input - usage.cacheRead - usage.cacheWrite),
    outputTokens: usage.output,
    totalTokens: usage.input + usage.output,
    cacheReadInputTokens: usage.cacheRead,
    cacheWriteInputTokens: usage.cacheWrite,
  };
}

function stopReason(turn: ResolvedTurn): string {
  return turn.rawStopReason ?? mapBedrockStopReason(turn.stopReason);
}

function event(eventType: string, payload: unknown, terminal = false): WireEvent {
  const wire: WireEvent = { eventType, messageType: 'event', data: JSON.stringify(payload) };
  if (terminal) wire.terminal = true;
  return wire;
}

function pieces(text: string, size: number): string[] {
  const split = splitText(text, size);
  return split.length > 0 ? split : [''];
}

function blockEvents(block: ResolvedBlock, index: number, turn: ResolvedTurn): WireEvent[] {
  const delta = (value: unknown): WireEvent => event('contentBlockDelta', { contentBlockIndex: index, delta: value });
  const events: WireEvent[] = [];
  switch (block.type) {
    case 'text':
      for (const text of pieces(block.text, turn.textDelta)) events.push(delta({ text }));
      break;
    case 'thinking':
      for (const text of pieces(block.thinking, turn.textDelta)) events.push(delta({ reasoningContent: { text } }));
      if (block.signature !== undefined) events.push(delta({ reasoningContent: { signature: block.signature } }));
      break;
    case 'redacted_thinking':
      events.push(delta({ reasoningContent: { redactedContent: block.data } }));
      break;
    case 'tool_call':
      // Only tool use opens with contentBlockStart; streamed input is a string, cut in argumentsDelta pieces.
      events.push(event('contentBlockStart', { contentBlockIndex: index, start: { toolUse: toolUse(block) } }));
      for (const input of splitText(block.arguments, turn.argumentsDelta)) events.push(delta({ toolUse: { input } }));
      break;
  }
  events.push(event('contentBlockStop', { contentBlockIndex: index }));
  return events;
}

/**
 * One wire event as the AWS event-stream frame Bedrock sends: `:event-type` (or `:exception-type`
 * with `:message-type: exception`), `:content-type: application/json`, the JSON payload, both CRCs.
 */
export function bedrockFrame(wire: WireEvent): Uint8Array {
  if (wire.eventType === undefined) {
    throw new Error('bedrockFrame: a Bedrock wire event needs an eventType (e.g. "contentBlockDelta").');
  }
  const headers: Record<string, string> =
    wire.messageType === 'exception'
      ? { ':exception-type': wire.eventType, ':content-type': 'application/json', ':message-type': 'exception' }
      : { ':event-type': wire.eventType, ':content-type': 'application/json', ':message-type': 'event' };
  return encodeEventStreamMessage({ headers, payload: encoder.encode(wire.data) });
}

/** One recorded line, `{"<eventType>": {...payload}}`, as a wire event. */
function replayLine(line: string, lineNumber: number): WireEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    parsed = undefined;
  }
  const entries = typeof parsed === 'object' && parsed !== null ? Object.entries(parsed) : [];
  const [entry] = entries;
  if (entries.length !== 1 || entry === undefined) {
    throw new Error(
      `Bedrock replay line ${lineNumber} is not one event of the form {"<eventType>": {...}}: ${line.slice(0, 120)}`,
    );
  }
  const [eventType, payload] = entry;
  const wire: WireEvent = {
    eventType,
    messageType: eventType.endsWith('Exception') ? 'exception' : 'event',
    data: JSON.stringify(payload),
  };
  if (eventType === 'messageStop' || eventType === 'metadata') wire.terminal = true;
  return wire;
}

/** The Bedrock Converse renderer. */
export const bedrockProtocol: ProtocolRenderer = {
  id: 'bedrock',
  framing: 'aws-eventstream',
  streamContentType: 'application/vnd.amazon.eventstream',

  matchRoute(method, path) {
    if (method !== 'POST') return undefined;
    const match = ROUTE.exec(path);
    if (!match) return undefined;
    return { model: decodeModelId(match[1] ?? ''), stream: match[2] === 'converse-stream' };
  },

  renderResponse(turn) {
    return {
      output: { message: { role: 'assistant', content: turn.content.map(contentBlock) } },
      stopReason: stopReason(turn),
      usage: bedrockUsage(turn.usage),
      metrics: { latencyMs: LATENCY_MS },
    };
  },

  renderStream(turn) {
    const events: WireEvent[] = [event('messageStart', { role: 'assistant' })];
    turn.content.forEach((block, index) => {
      events.push(...blockEvents(block, index, turn));
    });
    events.push(event('messageStop', { stopReason: stopReason(turn) }, true));
    events.push(event('metadata', { usage: bedrockUsage(turn.usage), metrics: { latencyMs: LATENCY_MS } }, true));
    return events;
  },

  renderError(error) {
    return bedrockErrorResponse(error);
  },

  renderStreamError(error) {
    return bedrockStreamError(error);
  },

  replayStream(lines) {
    return lines.map((line, index) => replayLine(line, index + 1));
  },

  keepAlive() {
    return undefined;
  },

  responseHeaders(requestId) {
    return { 'x-amzn-RequestId': requestId };
  },
};
