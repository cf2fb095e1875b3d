import { z } from 'zod';
import { splitText } from './chunks.js';
import { openaiErrorInfo, renderOpenAiError } from './openai-errors.js';
import {
  itemObject,
  openaiResponsesUsage,
  outputText,
  type ResponsesItem,
  responsesItems,
  summaryText,
  turnOutcome,
} from './openai-responses-items.js';
import type { ParsedRequest, ProtocolRenderer, ResolvedError, ResolvedTurn, WireEvent } from './protocol.js';

/** The request fields the renderer reads; the response echoes the request's settings as the API does. */
const requestBodySchema = z.looseObject({
  model: z.string().optional().catch(undefined),
  stream: z.boolean().optional().catch(undefined),
  instructions: z.string().nullable().optional().catch(undefined),
  max_output_tokens: z.number().nullable().optional().catch(undefined),
  previous_response_id: z.string().nullable().optional().catch(undefined),
  tools: z.array(z.unknown()).optional().catch(undefined),
  tool_choice: z.unknown().optional(),
  parallel_tool_calls: z.boolean().optional().catch(undefined),
  temperature: z.number().nullable().optional().catch(undefined),
  top_p: z.number().nullable().optional().catch(undefined),
  store: z.boolean().optional().catch(undefined),
  metadata: z.record(z.string(), z.string()).optional().catch(undefined),
});

function readBody(body: unknown): z.infer<typeof requestBodySchema> {
  const parsed = requestBodySchema.safeParse(body);
  return parsed.success ? parsed.data : {};
}

/** What a response object says beyond its settings: how it ended, its output and usage. */
interface ResponseState {
  status: 'in_progress' | 'completed' | 'incomplete' | 'failed';
  output: Record<string, unknown>[];
  usage: Record<string, unknown> | null;
  incompleteReason?: string | undefined;
  error?: { code: string; message: string } | undefined;
}

/**
 * A `response` object: id, status, output and usage, with the request's settings echoed back.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
function responseObject(
  identity: { id: string; model: string; createdAt: number },
  request: ParsedRequest | undefined,
  state: ResponseState,
): Record<string, unknown> {
  const fields = readBody(request?.body);
  return {
    id: identity.id,
    object: 'response',
    created_at: identity.createdAt,
    status: state.status,
    background: false,
    error: state.error ?? null,
    incomplete_details: state.incompleteReason === undefined ? null : { reason: state.incompleteReason },
    instructions: fields.instructions ?? null,
    max_output_tokens: fields.max_output_tokens ?? null,
    model: identity.model,
    output: state.output,
    parallel_tool_calls: fields.parallel_tool_calls ?? true,
    previous_response_id: fields.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    store: fields.store ?? true,
    temperature: fields.temperature ?? 1,
    text: { format: { type: 'text' } },
    tool_choice: fields.tool_choice ?? 'auto',
    tools: fields.tools ?? [],
    top_p: fields.top_p ?? 1,
    truncation: 'disabled',
    usage: state.usage,
    user: null,
    metadata: fields.metadata ?? {},
  };
}

function identityOf(turn: ResolvedTurn) {
  return { id: turn.responseId, model: turn.model, createdAt: turn.created };
}

/** The finished response of a turn: `completed`, or `incomplete` with its reason. */
function finalResponse(turn: ResolvedTurn, request: ParsedRequest, items: ResponsesItem[]): Record<string, unknown> {
  const outcome = turnOutcome(turn);
  return responseObject(identityOf(turn), request, {
    status: outcome.status,
    output: items.map((item) => itemObject(item, true)),
    usage: openaiResponsesUsage(turn),
    incompleteReason: outcome.incompleteReason,
  });
}

/** The events of one output item, from `output_item.added` to `output_item.done`, without sequence numbers. */
function itemEvents(item: ResponsesItem, outputIndex: number, turn: ResolvedTurn): Record<string, unknown>[] {
  const at = { item_id: item.id, output_index: outputIndex };
  const events: Record<string, unknown>[] = [
    { type: 'response.output_item.added', output_index: outputIndex, item: itemObject(item, false) },
  ];
  if (item.kind === 'reasoning' && item.summary !== '') {
    const part = { ...at, summary_index: 0 };
    events.push({ type: 'response.reasoning_summary_part.added', ...part, part: summaryText('') });
    for (const delta of splitText(item.summary, turn.textDelta)) {
      events.push({ type: 'response.reasoning_summary_text.delta', ...part, delta });
    }
    events.push(
      { type: 'response.reasoning_summary_text.done', ...part, text: item.summary },
      { type: 'response.reasoning_summary_part.done', ...part, part: summaryText(item.summary) },
    );
  } else if (item.kind === 'message') {
    const part = { ...at, content_index: 0 };
    events.push({ type: 'response.content_part.added', ...part, part: outputText('') });
    for (const delta of splitText(item.text, turn.textDelta)) {
      events.push({ type: 'response.output_text.delta', ...part, delta, logprobs: [] });
    }
    events.push(
      { type: 'response.output_text.done', ...part, text: item.text, logprobs: [] },
      { type: 'response.content_part.done', ...part, part: outputText(item.text) },
    );
  } else if (item.kind === 'function_call') {
    for (const delta of splitText(item.arguments, turn.argumentsDelta)) {
      events.push({ type: 'response.function_call_arguments.delta', ...at, delta });
    }
    events.push({ type: 'response.function_call_arguments.done', ...at, name: item.name, arguments: item.arguments });
  }
  events.push({ type: 'response.output_item.done', output_index: outputIndex, item: itemObject(item, true) });
  return events;
}

/** Where a mid-stream failure happens, when the server can tell. */
export interface ResponsesStreamErrorContext {
  /** Events already on the wire before the error: the error event's `sequence_number`. */
  eventsSent?: number;
}

/** The Responses renderer; its stream error can also take the {@link ResponsesStreamErrorContext}. */
export interface ResponsesRenderer extends ProtocolRenderer {
  renderStreamError(error: ResolvedError, request: ParsedRequest, context?: ResponsesStreamErrorContext): WireEvent;
}

const TERMINAL_TYPES = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * The `type` of a recorded payload, which the Responses API repeats as the SSE event name. A line that is
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

/**
 * The OpenAI Responses API (`POST /v1/responses`): the `response` body and the semantic event stream
 * (`response.created`, `response.in_progress`, `response.output_item.*`, `response.content_part.*`,
 * `response.output_text.*`, `response.reasoning_summary_*`, `response.function_call_arguments.*`,
 * then `response.completed` or `response.incomplete`), each event numbered by `sequence_number`.
 *
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export const openaiResponsesProtocol: ResponsesRenderer = {
  id: 'openai-responses',
  framing: 'sse',
  streamContentType: 'text/event-stream; charset=utf-8',

  matchRoute(method, path, body) {
    if (method !== 'POST' || !path.endsWith('/responses')) return undefined;
    const fields = readBody(body);
    return { model: fields.model ?? '', stream: fields.stream === true };
  },

  renderResponse(turn, request) {
    return finalResponse(turn, request, responsesItems(turn));
  },

  renderStream(turn, request) {
    const items = responsesItems(turn);
    const started = responseObject(identityOf(turn), request, { status: 'in_progress', output: [], usage: null });
    const payloads: Record<string, unknown>[] = [
      { type: 'response.created', response: started },
      { type: 'response.in_progress', response: started },
      ...items.flatMap((item, index) => itemEvents(item, index, turn)),
    ];
    const last = finalResponse(turn, request, items);
    payloads.push({ type: last.status === 'completed' ? 'response.completed' : 'response.incomplete', response: last });
    return payloads.map(({ type, ...rest }, sequence) => {
      const wire: WireEvent = {
        event: String(type),
        data: JSON.stringify({ type, sequence_number: sequence, ...rest }),
      };
      if (TERMINAL_TYPES.has(String(type))) wire.terminal = true;
      return wire;
    });
  },

  renderError(error, request) {
    return renderOpenAiError(error, request, 'responses');
  },

  /**
   * A failure after the stream started is the documented `error` event: `code` (`rate_limit_exceeded`,
   * `context_length_exceeded`, `server_error`, …), `message` and `param`, numbered after the events
   * already sent when the server says how many that was (the field is left out otherwise).
   *
   * @see https://platform.openai.com/docs/api-reference/responses-streaming/error
   */
  renderStreamError(error, request, context = {}) {
    const info = openaiErrorInfo(error, request, 'responses');
    const payload: Record<string, unknown> = {
      type: 'error',
      code: info.code ?? 'server_error',
      message: error.message ?? info.message,
      param: info.param,
    };
    if (context.eventsSent !== undefined) payload.sequence_number = context.eventsSent;
    return { event: 'error', data: JSON.stringify(payload) };
  },

  replayStream(lines) {
    const events: WireEvent[] = [];
    for (const line of lines) {
      const data = line.trim();
      if (!data) continue;
      const type = payloadType(data);
      const wire: WireEvent = type === undefined ? { data } : { event: type, data };
      if (type !== undefined && TERMINAL_TYPES.has(type)) wire.terminal = true;
      events.push(wire);
    }
    return events;
  },

  keepAlive() {
    return undefined;
  },

  responseHeaders(requestId) {
    return { 'x-request-id': requestId };
  },
};
