import { z } from 'zod';
import type { MockStopReason } from '../script/types.js';
import { splitText } from './chunks.js';
import { openaiErrorBody, openaiErrorInfo, renderOpenAiError } from './openai-errors.js';
import type { ProtocolRenderer, ResolvedTurn, WireEvent } from './protocol.js';

/** The few request fields the renderer reads; anything else a client sends is ignored. */
const requestBodySchema = z.looseObject({
  model: z.string().optional().catch(undefined),
  stream: z.boolean().optional().catch(undefined),
  stream_options: z
    .looseObject({ include_usage: z.boolean().optional().catch(undefined) })
    .optional()
    .catch(undefined),
});

function readBody(body: unknown): z.infer<typeof requestBodySchema> {
  const parsed = requestBodySchema.safeParse(body);
  return parsed.success ? parsed.data : {};
}

/** Azure OpenAI names the deployment in the path; it stands in for the model when the body names none. */
const AZURE_DEPLOYMENT = /\/openai\/deployments\/([^/]+)\/chat\/completions$/;

/**
 * The Chat Completions `finish_reason` for a neutral stop reason. Chat has no pause or refusal
 * reason: a pause ends as `stop`, a refusal is reported as `content_filter`.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
export function openaiChatFinishReason(reason: MockStopReason): string {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
      return 'length';
    case 'refusal':
    case 'content_filter':
      return 'content_filter';
    default:
      return 'stop';
  }
}

/**
 * Usage in the Chat Completions shape. `prompt_tokens` counts every input token, cached ones included (as the
 * neutral `input` does);
 * `cached_tokens` and `reasoning_tokens` are the cached and reasoning subsets.
 *
 * @see https://platform.openai.com/docs/guides/prompt-caching
 */
export function openaiChatUsage(turn: ResolvedTurn): Record<string, unknown> {
  const { input, output, cacheRead, cacheWrite, reasoning } = turn.usage;
  const promptDetails: Record<string, number> = { cached_tokens: cacheRead, audio_tokens: 0 };
  if (cacheWrite > 0) promptDetails.cache_write_tokens = cacheWrite;
  return {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    prompt_tokens_details: promptDetails,
    completion_tokens_details: {
      reasoning_tokens: reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function finishReason(turn: ResolvedTurn): string {
  return turn.rawStopReason ?? openaiChatFinishReason(turn.stopReason);
}

/** A tool call as `message.tool_calls` lists it; a call without an id has no `id` key. */
function toolCall(id: string | undefined, name: string, argumentsText: string): Record<string, unknown> {
  const call: Record<string, unknown> = { type: 'function', function: { name, arguments: argumentsText } };
  return id === undefined ? call : { id, ...call };
}

/**
 * The assistant message of a non-streamed completion. Thinking is sent as `reasoning_content`,
 * the field DeepSeek-style servers use (official OpenAI models never return their reasoning).
 */
function assistantMessage(turn: ResolvedTurn): Record<string, unknown> {
  let text = '';
  let reasoning: string | undefined;
  const toolCalls: Record<string, unknown>[] = [];
  for (const block of turn.content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'thinking') reasoning = (reasoning ?? '') + block.thinking;
    else if (block.type === 'tool_call') toolCalls.push(toolCall(block.id, block.name, block.arguments));
  }
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: text === '' && toolCalls.length > 0 ? null : text,
    refusal: null,
    annotations: [],
  };
  if (reasoning !== undefined) message.reasoning_content = reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return message;
}

/**
 * The deltas of a streamed completion, in content order: text as `content`, thinking as
 * `reasoning_content`, and each tool call as `tool_calls[{index}]` whose first delta alone carries
 * the id, type and name, followed by argument pieces.
 *
 * @see https://platform.openai.com/docs/api-reference/chat-streaming/streaming
 */
function streamDeltas(turn: ResolvedTurn): Record<string, unknown>[] {
  const deltas: Record<string, unknown>[] = [{ role: 'assistant', content: '', refusal: null }];
  let toolIndex = 0;
  for (const block of turn.content) {
    if (block.type === 'text') {
      for (const content of splitText(block.text, turn.textDelta)) deltas.push({ content });
    } else if (block.type === 'thinking') {
      for (const piece of splitText(block.thinking, turn.textDelta)) deltas.push({ reasoning_content: piece });
    } else if (block.type === 'tool_call') {
      const index = toolIndex++;
      const first = toolCall(block.id, block.name, '');
      deltas.push({ tool_calls: [{ index, ...first }] });
      for (const piece of splitText(block.arguments, turn.argumentsDelta)) {
        deltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
      }
    }
  }
  return deltas;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A recorded chunk closes the stream when it carries a `finish_reason` or the final usage. */
function isClosingChunk(data: string): boolean {
  try {
    const chunk: unknown = JSON.parse(data);
    if (!isRecord(chunk)) return false;
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    if (choices.some((choice) => isRecord(choice) && typeof choice.finish_reason === 'string')) return true;
    return choices.length === 0 && isRecord(chunk.usage);
  } catch {
    return false;
  }
}

/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`, also Azure's
 * `/openai/deployments/{deployment}/chat/completions`): the `chat.completion` body, the
 * `chat.completion.chunk` stream ending in `data: [DONE]` (with a usage chunk with empty `choices`
 * when `stream_options.include_usage` is set), and errors.
 *
 * @see https://platform.openai.com/docs/api-reference/chat
 */
export const openaiChatProtocol: ProtocolRenderer = {
  id: 'openai-chat',
  framing: 'sse',
  streamContentType: 'text/event-stream; charset=utf-8',

  matchRoute(method, path, body) {
    if (method !== 'POST' || !path.endsWith('/chat/completions')) return undefined;
    const fields = readBody(body);
    const deployment = AZURE_DEPLOYMENT.exec(path)?.[1];
    const model = fields.model ?? (deployment === undefined ? '' : decodeURIComponent(deployment));
    return { model, stream: fields.stream === true, includeUsage: fields.stream_options?.include_usage === true };
  },

  renderResponse(turn) {
    return {
      id: turn.responseId,
      object: 'chat.completion',
      created: turn.created,
      model: turn.model,
      choices: [{ index: 0, message: assistantMessage(turn), logprobs: null, finish_reason: finishReason(turn) }],
      usage: openaiChatUsage(turn),
      service_tier: 'default',
      system_fingerprint: null,
    };
  },

  renderStream(turn, request) {
    // With include_usage, every chunk carries `usage: null` until the final usage chunk.
    const base: Record<string, unknown> = {
      id: turn.responseId,
      object: 'chat.completion.chunk',
      created: turn.created,
      model: turn.model,
      service_tier: 'default',
      system_fingerprint: null,
    };
    const chunk = (delta: Record<string, unknown>, finish: string | null): string =>
      JSON.stringify({
        ...base,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        ...(request.includeUsage ? { usage: null } : {}),
      });
    const events: WireEvent[] = streamDeltas(turn).map((delta) => ({ data: chunk(delta, null) }));
    events.push({ data: chunk({}, finishReason(turn)), terminal: true });
    if (request.includeUsage) {
      events.push({ data: JSON.stringify({ ...base, choices: [], usage: openaiChatUsage(turn) }), terminal: true });
    }
    events.push({ data: '[DONE]', terminal: true });
    return events;
  },

  renderError(error, request) {
    return renderOpenAiError(error, request, 'chat');
  },

  renderStreamError(error, request) {
    // A failure after the 200 arrives as a chunk holding only `error`; the SDKs throw on it.
    const info = openaiErrorInfo(error, request, 'chat');
    return { data: JSON.stringify(openaiErrorBody(info, error.message ?? info.message)) };
  },

  replayStream(lines) {
    const events: WireEvent[] = [];
    for (const line of lines) {
      const data = line.trim();
      if (!data) continue;
      events.push(isClosingChunk(data) ? { data, terminal: true } : { data });
    }
    events.push({ data: '[DONE]', terminal: true });
    return events;
  },

  keepAlive() {
    return undefined;
  },

  responseHeaders(requestId) {
    return { 'x-request-id': requestId };
  },
};
