import { z } from 'zod';
import type { MockStopReason } from '../script/types.js';
import { anthropicErrorBody, anthropicErrorInfo, renderAnthropicError } from './anthropic-errors.js';
import { splitText } from './chunks.js';
import type { ParsedRequest, ProtocolRenderer, ResolvedBlock, ResolvedTurn, WireEvent } from './protocol.js';

/** The few request fields the renderer reads; anything else a client sends is ignored. */
const requestBodySchema = z.looseObject({
  model: z.string().optional().catch(undefined),
  stream: z.boolean().optional().catch(undefined),
  stop_sequences: z.array(z.string()).optional().catch(undefined),
});

function readBody(body: unknown): z.infer<typeof requestBodySchema> {
  const parsed = requestBodySchema.safeParse(body);
  return parsed.success ? parsed.data : {};
}

/**
 * The Messages API `stop_reason` for a neutral stop reason. Anthropic has no content-filter
 * reason; its streaming classifiers stop with `refusal`, the closest meaning.
 *
 * @see https://docs.claude.com/en/docs/build-with-claude/handling-stop-reasons
 */
export function anthropicStopReason(reason: MockStopReason): string {
  switch (reason) {
    case 'end_turn':
    case 'tool_use':
    case 'max_tokens':
    case 'stop_sequence':
    case 'refusal':
    case 'pause_turn':
      return reason;
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}

/** What the turn stops with: the vendor value (or the raw one), the stop sequence and refusal details. */
function stopFields(turn: ResolvedTurn, request: ParsedRequest) {
  const stopReason = turn.rawStopReason ?? anthropicStopReason(turn.stopReason);
  const stopSequence =
    stopReason === 'stop_sequence' ? (readBody(request.body).stop_sequences?.[0] ?? null) : (null as string | null);
  // `stop_details` is null unless the model refused. @see https://docs.claude.com/en/api/messages
  const stopDetails = stopReason === 'refusal' ? { type: 'refusal', category: null, explanation: null } : null;
  return { stop_reason: stopReason, stop_sequence: stopSequence, stop_details: stopDetails };
}

/**
 * Anthropic's `input_tokens` leaves out the cached tokens that the neutral `input` counts: those are
 * reported apart as `cache_read_input_tokens` and `cache_creation_input_tokens`.
 *
 * @see https://docs.claude.com/en/docs/build-with-claude/prompt-caching
 */
export function anthropicInputTokens(usage: ResolvedTurn['usage']): number {
  return Math.max(0, usage.input - usage.cacheRead - usage.cacheWrite);
}

/**
 * Usage in the Messages API shape, cache writes counted at the default 5-minute TTL, with the
 * `output_tokens_details.thinking_tokens` breakdown recent responses carry (even when 0).
 * `message_start` reports only the first output token; the final count comes with `message_delta`.
 *
 * @see https://docs.claude.com/en/docs/build-with-claude/prompt-caching
 */
export function anthropicUsage(turn: ResolvedTurn, phase: 'start' | 'final' = 'final'): Record<string, unknown> {
  const { output, cacheRead, cacheWrite, reasoning } = turn.usage;
  const usage: Record<string, unknown> = {
    input_tokens: anthropicInputTokens(turn.usage),
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: cacheWrite, ephemeral_1h_input_tokens: 0 },
    output_tokens: phase === 'start' ? Math.min(1, output) : output,
    service_tier: 'standard',
  };
  if (phase === 'final') usage.output_tokens_details = { thinking_tokens: reasoning };
  return usage;
}

/** The cumulative usage a `message_delta` carries. */
function deltaUsage(turn: ResolvedTurn): Record<string, unknown> {
  const { output, cacheRead, cacheWrite, reasoning } = turn.usage;
  return {
    input_tokens: anthropicInputTokens(turn.usage),
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    output_tokens: output,
    output_tokens_details: { thinking_tokens: reasoning },
  };
}

/**
 * A tool call's `input` object. Under the malformed-arguments fault the text does not parse; the
 * non-streamed body then carries the broken text itself as `input`, so a client that expects an
 * object sees the damage instead of a silently emptied call.
 */
function toolInput(argumentsText: string): unknown {
  try {
    return JSON.parse(argumentsText);
  } catch {
    return argumentsText;
  }
}

function contentBlock(block: ResolvedBlock): Record<string, unknown> {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature ?? '' };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    case 'tool_call':
      return { type: 'tool_use', id: block.id, name: block.name, input: toolInput(block.arguments) };
  }
}

/** The block as `content_block_start` announces it: empty text, empty thinking, no input yet. */
function startBlock(block: ResolvedBlock): Record<string, unknown> {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: '' };
    case 'thinking':
      return { type: 'thinking', thinking: '', signature: '' };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    case 'tool_call':
      return { type: 'tool_use', id: block.id, name: block.name, input: {} };
  }
}

/**
 * The deltas of one block. Tool input starts with an empty `input_json_delta` as the API does, and a
 * call without arguments (`{}`) sends nothing else (see the recorded `anthropic-tool-no-args` stream).
 *
 * @see https://docs.claude.com/en/docs/build-with-claude/streaming
 */
function blockDeltas(block: ResolvedBlock, turn: ResolvedTurn): Record<string, unknown>[] {
  switch (block.type) {
    case 'text':
      return splitText(block.text, turn.textDelta).map((text) => ({ type: 'text_delta', text }));
    case 'thinking': {
      const deltas: Record<string, unknown>[] = splitText(block.thinking, turn.textDelta).map((thinking) => ({
        type: 'thinking_delta',
        thinking,
      }));
      if (block.signature !== undefined) deltas.push({ type: 'signature_delta', signature: block.signature });
      return deltas;
    }
    case 'redacted_thinking':
      return [];
    case 'tool_call': {
      const pieces = block.arguments === '{}' ? [] : splitText(block.arguments, turn.argumentsDelta);
      return ['', ...pieces].map((partial_json) => ({ type: 'input_json_delta', partial_json }));
    }
  }
}

function event(data: Record<string, unknown> & { type: string }, terminal?: boolean): WireEvent {
  const wire: WireEvent = { event: data.type, data: JSON.stringify(data) };
  if (terminal) wire.terminal = true;
  return wire;
}

const PING: Record<string, unknown> & { type: string } = { type: 'ping' };

/**
 * The Anthropic Messages API (`POST /v1/messages`): the `message` body, the named-event SSE stream
 * (`message_start`, `content_block_*`, `ping`, `message_delta`, `message_stop`), and errors.
 *
 * @see https://docs.claude.com/en/api/messages
 * @see https://docs.claude.com/en/docs/build-with-claude/streaming
 */
export const anthropicProtocol: ProtocolRenderer = {
  id: 'anthropic',
  framing: 'sse',
  streamContentType: 'text/event-stream; charset=utf-8',

  matchRoute(method, path, body) {
    if (method !== 'POST' || !path.endsWith('/v1/messages')) return undefined;
    const fields = readBody(body);
    return { model: fields.model ?? '', stream: fields.stream === true };
  },

  renderResponse(turn, request) {
    return {
      id: turn.responseId,
      type: 'message',
      role: 'assistant',
      model: turn.model,
      content: turn.content.map(contentBlock),
      ...stopFields(turn, request),
      usage: anthropicUsage(turn),
    };
  },

  renderStream(turn, request) {
    const { stop_reason, stop_sequence, stop_details } = stopFields(turn, request);
    const message = {
      id: turn.responseId,
      type: 'message',
      role: 'assistant',
      model: turn.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      stop_details: null,
      usage: anthropicUsage(turn, 'start'),
    };
    const events: WireEvent[] = [event({ type: 'message_start', message })];
    if (turn.content.length === 0) events.push(event(PING));
    turn.content.forEach((block, index) => {
      events.push(event({ type: 'content_block_start', index, content_block: startBlock(block) }));
      if (index === 0) events.push(event(PING));
      for (const delta of blockDeltas(block, turn)) events.push(event({ type: 'content_block_delta', index, delta }));
      events.push(event({ type: 'content_block_stop', index }));
    });
    events.push(
      event(
        { type: 'message_delta', delta: { stop_reason, stop_sequence, stop_details }, usage: deltaUsage(turn) },
        true,
      ),
      event({ type: 'message_stop' }, true),
    );
    return events;
  },

  renderError(error, request) {
    return renderAnthropicError(error, request?.model ?? '');
  },

  renderStreamError(error, request) {
    const info = anthropicErrorInfo(error, request.model);
    return { event: 'error', data: JSON.stringify(anthropicErrorBody(info, error.message ?? info.message)) };
  },

  replayStream(lines) {
    const events: WireEvent[] = [];
    for (const line of lines) {
      const data = line.trim();
      if (!data) continue;
      const type = payloadType(data);
      const wire: WireEvent = type === undefined ? { data } : { event: type, data };
      if (type === 'message_delta' || type === 'message_stop') wire.terminal = true;
      events.push(wire);
    }
    return events;
  },

  keepAlive() {
    return event(PING);
  },

  responseHeaders(requestId) {
    return { 'request-id': requestId };
  },
};

/**
 * The `type` of a recorded payload, which Anthropic repeats as the SSE event name. A line that is
 * not valid JSON (a damaged recording) still gets the name its first `"type"` field gives.
 */
function payloadType(data: string): string | undefined {
  try {
    const payload: unknown = JSON.parse(data);
    if (typeof payload === 'object' && payload !== null && 'type' in payload && typeof payload.type === 'string') {
      return payload.type;
    }
    return undefined;
  } catch {
    return /^\{\s*"type"\s*:\s*"([^"]+)"/.exec(data)?.[1];
  }
}
