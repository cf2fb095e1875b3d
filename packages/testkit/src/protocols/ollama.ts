import type { MockStopReason } from '../script/types.js';
import { splitText } from './chunks.js';
import { ollamaErrorResponse, ollamaStreamError } from './ollama-errors.js';
import type { ProtocolRenderer, ResolvedBlock, ResolvedTurn, WireEvent } from './protocol.js';

/**
 * Ollama's native chat API (`POST /api/chat`): NDJSON lines while streaming (the default when the
 * body has no `"stream": false`), or one JSON object. Thinking is `message.thinking`; tool calls are
 * `message.tool_calls` with `function.arguments` as a JSON object, each sent whole.
 *
 * @see https://docs.ollama.com/api/chat
 * @see https://docs.ollama.com/api/streaming
 * @see https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
 */

type ToolCallBlock = Extract<ResolvedBlock, { type: 'tool_call' }>;

/** Durations Ollama reports, in nanoseconds; the mock answers at once, so these are plausible constants. */
const DURATIONS = { load_duration: 1_000_000, prompt_eval_duration: 20_000_000, eval_duration: 80_000_000 };
const TOTAL_DURATION = 110_000_000;

/**
 * Ollama's `done_reason`: `length` when the output limit was hit, otherwise `stop` (Ollama reports
 * tool calls, stop sequences and everything else as a plain stop).
 *
 * @see https://github.com/ollama/ollama/blob/main/api/types.go
 */
export function mapOllamaDoneReason(stopReason: MockStopReason): string {
  return stopReason === 'max_tokens' ? 'length' : 'stop';
}

/**
 * `function.arguments` is a JSON object. Malformed argument text (the `malformed_tool_arguments`
 * fault) is sent as a JSON string in its place, the closest a broken server gets: clients that
 * expect an object see a string they cannot read as arguments.
 */
function toolArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toolCall(block: ToolCallBlock, index: number): Record<string, unknown> {
  const call: Record<string, unknown> = {};
  if (block.id !== undefined) call.id = block.id;
  call.function = { index, name: block.name, arguments: toolArguments(block.arguments) };
  return call;
}

function createdAt(turn: ResolvedTurn): string {
  return new Date(turn.created * 1000).toISOString();
}

function doneReason(turn: ResolvedTurn): string {
  return turn.rawStopReason ?? mapOllamaDoneReason(turn.stopReason);
}

/**
 * The closing fields: `done`, the reason, timings and token counts. `prompt_eval_count` counts the
 * prompt tokens Ollama evaluated, so a prefix reused from its cache (`cacheRead`) is not in it.
 */
function doneFields(turn: ResolvedTurn): Record<string, unknown> {
  return {
    done: true,
    done_reason: doneReason(turn),
    total_duration: TOTAL_DURATION,
    load_duration: DURATIONS.load_duration,
    prompt_eval_count: Math.max(0, turn.usage.input - turn.usage.cacheRead),
    prompt_eval_duration: DURATIONS.prompt_eval_duration,
    eval_count: turn.usage.output,
    eval_duration: DURATIONS.eval_duration,
  };
}

function line(turn: ResolvedTurn, message: Record<string, unknown>, done?: Record<string, unknown>): string {
  return JSON.stringify({
    model: turn.model,
    created_at: createdAt(turn),
    message: { role: 'assistant', content: '', ...message },
    ...(done ?? { done: false }),
  });
}

/** The Ollama renderer. */
export const ollamaProtocol: ProtocolRenderer = {
  id: 'ollama',
  framing: 'ndjson',
  streamContentType: 'application/x-ndjson',

  matchRoute(method, path, body) {
    if (method !== 'POST' || !/\/api\/chat$/.test(path)) return undefined;
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    // Ollama streams unless the body says "stream": false.
    return { model: typeof record.model === 'string' ? record.model : '', stream: record.stream !== false };
  },

  renderResponse(turn) {
    let content = '';
    let thinking: string | undefined;
    const toolCalls: Record<string, unknown>[] = [];
    for (const block of turn.content) {
      if (block.type === 'text') content += block.text;
      else if (block.type === 'thinking') thinking = (thinking ?? '') + block.thinking;
      else if (block.type === 'tool_call') toolCalls.push(toolCall(block, toolCalls.length));
    }
    const message: Record<string, unknown> = { role: 'assistant', content };
    if (thinking !== undefined) message.thinking = thinking;
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    return { model: turn.model, created_at: createdAt(turn), message, ...doneFields(turn) };
  },

  renderStream(turn) {
    const events: WireEvent[] = [];
    let toolIndex = 0;
    for (const block of turn.content) {
      if (block.type === 'text') {
        for (const piece of splitText(block.text, turn.textDelta))
          events.push({ data: line(turn, { content: piece }) });
      } else if (block.type === 'thinking') {
        for (const piece of splitText(block.thinking, turn.textDelta)) {
          events.push({ data: line(turn, { thinking: piece }) });
        }
      } else if (block.type === 'tool_call') {
        events.push({ data: line(turn, { tool_calls: [toolCall(block, toolIndex++)] }) });
      }
    }
    events.push({ data: line(turn, {}, doneFields(turn)), terminal: true });
    return events;
  },

  renderError(error, request) {
    return ollamaErrorResponse(error, request?.model || 'llama3.2');
  },

  renderStreamError(error, request) {
    return ollamaStreamError(error, request.model || 'llama3.2');
  },

  replayStream(lines) {
    return lines.map((text) => {
      let done = false;
      try {
        done = (JSON.parse(text) as { done?: unknown }).done === true;
      } catch {
        done = false;
      }
      return done ? { data: text, terminal: true } : { data: text };
    });
  },

  keepAlive() {
    return undefined;
  },

  responseHeaders() {
    return {};
  },
};
