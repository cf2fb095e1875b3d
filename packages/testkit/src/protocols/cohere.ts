import { splitText } from './chunks.js';
import { cohereErrorResponse, cohereStreamError } from './cohere-errors.js';
import { mapCohereFinishReason } from './cohere-finish-reason.js';
import type { ProtocolRenderer, ResolvedBlock, ResolvedTurn, WireEvent } from './protocol.js';

/**
 * Cohere Chat API v2 (`POST /v2/chat`): a `ChatResponse`, or with `"stream": true` an SSE stream of
 * typed events, each sent with its `type` as the SSE `event:` name.
 *
 * A turn that calls tools puts its text in `tool_plan` (streamed as `tool-plan-delta`), as Cohere
 * does; otherwise text and thinking are `content` blocks. Cohere has no redacted thinking and no
 * thinking signatures, so those are left out.
 *
 * @see https://docs.cohere.com/reference/chat
 * @see https://docs.cohere.com/reference/chat-stream
 * @see https://docs.cohere.com/v2/docs/streaming
 */

type ToolCallBlock = Extract<ResolvedBlock, { type: 'tool_call' }>;

function hasToolCalls(turn: ResolvedTurn): boolean {
  return turn.content.some((block) => block.type === 'tool_call');
}

/** A tool call as `message.tool_calls` lists it; arguments are JSON text, as Cohere sends them. */
function toolCall(block: ToolCallBlock, argumentsText: string): Record<string, unknown> {
  const call: Record<string, unknown> = {};
  if (block.id !== undefined) call.id = block.id;
  call.type = 'function';
  call.function = { name: block.name, arguments: argumentsText };
  return call;
}

/**
 * Cohere `usage`: `tokens` counts every token the model saw, like the neutral `input` (cached ones
 * included, `cached_tokens` is that subset); `billed_units` counts the tokens billed, without the cache.
 */
export function cohereUsage(usage: ResolvedTurn['usage']): Record<string, unknown> {
  return {
    billed_units: { input_tokens: Math.max(0, usage.input - usage.cacheRead), output_tokens: usage.output },
    tokens: { input_tokens: usage.input, output_tokens: usage.output },
    cached_tokens: usage.cacheRead,
  };
}

function finishReason(turn: ResolvedTurn): string {
  return turn.rawStopReason ?? mapCohereFinishReason(turn.stopReason);
}

function typed(type: string, fields: Record<string, unknown>, terminal = false): WireEvent {
  const event: WireEvent = { event: type, data: JSON.stringify({ type, ...fields }) };
  if (terminal) event.terminal = true;
  return event;
}

function contentEvents(kind: 'text' | 'thinking', text: string, index: number, size: number): WireEvent[] {
  const events = [typed('content-start', { index, delta: { message: { content: { type: kind, [kind]: '' } } } })];
  for (const piece of splitText(text, size)) {
    events.push(typed('content-delta', { index, delta: { message: { content: { [kind]: piece } } } }));
  }
  events.push(typed('content-end', { index }));
  return events;
}

function toolCallEvents(block: ToolCallBlock, index: number, size: number): WireEvent[] {
  const events = [typed('tool-call-start', { index, delta: { message: { tool_calls: toolCall(block, '') } } })];
  for (const piece of splitText(block.arguments, size)) {
    events.push(
      typed('tool-call-delta', { index, delta: { message: { tool_calls: { function: { arguments: piece } } } } }),
    );
  }
  events.push(typed('tool-call-end', { index }));
  return events;
}

/** The Cohere v2 renderer. */
export const cohereProtocol: ProtocolRenderer = {
  id: 'cohere',
  framing: 'sse',
  streamContentType: 'text/event-stream',

  matchRoute(method, path, body) {
    if (method !== 'POST' || !/\/v2\/chat$/.test(path)) return undefined;
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    return { model: typeof record.model === 'string' ? record.model : '', stream: record.stream === true };
  },

  renderResponse(turn) {
    const planned = hasToolCalls(turn);
    const content: Record<string, unknown>[] = [];
    const toolCalls: Record<string, unknown>[] = [];
    let toolPlan = '';
    for (const block of turn.content) {
      if (block.type === 'text' && planned) toolPlan += block.text;
      else if (block.type === 'text') content.push({ type: 'text', text: block.text });
      else if (block.type === 'thinking') content.push({ type: 'thinking', thinking: block.thinking });
      else if (block.type === 'tool_call') toolCalls.push(toolCall(block, block.arguments));
    }
    const message: Record<string, unknown> = { role: 'assistant' };
    if (planned) {
      if (toolPlan !== '') message.tool_plan = toolPlan;
      message.tool_calls = toolCalls;
    }
    if (content.length > 0 || !planned) message.content = content;
    return { id: turn.responseId, message, finish_reason: finishReason(turn), usage: cohereUsage(turn.usage) };
  },

  renderStream(turn) {
    const planned = hasToolCalls(turn);
    const events: WireEvent[] = [
      {
        event: 'message-start',
        data: JSON.stringify({
          id: turn.responseId,
          type: 'message-start',
          delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
        }),
      },
    ];
    let contentIndex = 0;
    let toolIndex = 0;
    for (const block of turn.content) {
      if (block.type === 'text' && planned) {
        for (const piece of splitText(block.text, turn.textDelta)) {
          events.push(typed('tool-plan-delta', { delta: { message: { tool_plan: piece } } }));
        }
      } else if (block.type === 'text' || block.type === 'thinking') {
        const text = block.type === 'text' ? block.text : block.thinking;
        events.push(...contentEvents(block.type, text, contentIndex++, turn.textDelta));
      } else if (block.type === 'tool_call') {
        events.push(...toolCallEvents(block, toolIndex++, turn.argumentsDelta));
      }
    }
    events.push(
      typed('message-end', { delta: { finish_reason: finishReason(turn), usage: cohereUsage(turn.usage) } }, true),
    );
    return events;
  },

  renderError(error, request) {
    return cohereErrorResponse(error, request?.model || 'command-a-03-2025');
  },

  renderStreamError(error, request) {
    return cohereStreamError(error, request.model || 'command-a-03-2025');
  },

  replayStream(lines) {
    return lines.map((line) => {
      let type: unknown;
      try {
        type = (JSON.parse(line) as { type?: unknown }).type;
      } catch {
        type = undefined;
      }
      const event: WireEvent = typeof type === 'string' ? { event: type, data: line } : { data: line };
      if (type === 'message-end') event.terminal = true;
      return event;
    });
  },

  keepAlive() {
    return undefined;
  },

  responseHeaders() {
    return {};
  },
};
