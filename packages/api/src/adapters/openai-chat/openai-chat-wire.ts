import { z } from 'zod';

// Lenient schemas of what Chat Completions servers send: a field of the wrong type becomes
// `undefined` instead of failing the chunk, because dozens of "compatible" servers disagree on
// details (ids `""` or `null`, `index` missing, `content` as a string or an array of parts).
// @see https://platform.openai.com/docs/api-reference/chat-streaming/streaming

const optionalString = z.string().nullish().catch(undefined);
const optionalNumber = z.number().nullish().catch(undefined);

/** One tool-call fragment of a delta (or one whole call of a non-streamed message). */
const toolCallDeltaSchema = z
  .object({
    index: z.number().int().nonnegative().nullish().catch(undefined),
    id: optionalString,
    type: optionalString,
    function: z
      .object({
        name: optionalString,
        // Some servers (Ollama's compat layer, a few proxies) send the arguments already parsed.
        arguments: z
          .union([z.string(), z.record(z.string(), z.unknown())])
          .nullish()
          .catch(undefined),
      })
      .nullish()
      .catch(undefined),
  })
  .catch({});

/**
 * A content part: Mistral streams `[{type: 'thinking', thinking: [{type: 'text', text}]}, {type: 'text', text}]`
 * where others send a string. @see https://docs.mistral.ai/capabilities/reasoning/
 */
const contentPartSchema = z
  .object({
    type: optionalString,
    text: optionalString,
    thinking: z
      .union([z.string(), z.array(z.object({ text: optionalString }).catch({}))])
      .nullish()
      .catch(undefined),
  })
  .catch({});

/** OpenRouter's structured reasoning; kept whole (unknown keys too) to be sent back unchanged. */
const reasoningDetailSchema = z.record(z.string(), z.unknown());

/** The changes of one streamed chunk, and the shape of a non-streamed `message` too. */
export const deltaSchema = z.object({
  role: optionalString,
  content: z
    .union([z.string(), z.array(contentPartSchema)])
    .nullish()
    .catch(undefined),
  reasoning_content: optionalString,
  reasoning: optionalString,
  reasoning_details: z.array(reasoningDetailSchema.catch({})).nullish().catch(undefined),
  refusal: optionalString,
  tool_calls: z.array(toolCallDeltaSchema).nullish().catch(undefined),
});

/** Token counts; vendor extras (DeepSeek's cache hit/miss, xAI's totals) included. */
export const usageSchema = z.object({
  prompt_tokens: optionalNumber,
  completion_tokens: optionalNumber,
  total_tokens: optionalNumber,
  prompt_tokens_details: z
    .object({ cached_tokens: optionalNumber, cache_write_tokens: optionalNumber })
    .nullish()
    .catch(undefined),
  completion_tokens_details: z.object({ reasoning_tokens: optionalNumber }).nullish().catch(undefined),
  prompt_cache_hit_tokens: optionalNumber,
  prompt_cache_miss_tokens: optionalNumber,
});

const choiceSchema = z
  .object({
    index: optionalNumber,
    delta: deltaSchema.nullish().catch(undefined),
    message: deltaSchema.nullish().catch(undefined),
    finish_reason: optionalString,
  })
  .catch({});

/** An error object as servers put it in a body or a stream chunk: `{message, type, code, param}` or a string. */
const errorSchema = z.union([z.string(), z.record(z.string(), z.unknown())]);

/**
 * One `chat.completion.chunk` (streamed) or a whole `chat.completion` (its choices carry `message`).
 * `error` appears alone in a mid-stream failure (OpenAI, vLLM) or next to choices (OpenRouter).
 * @see https://openrouter.ai/docs/api-reference/errors
 */
export const chunkSchema = z.object({
  id: optionalString,
  model: optionalString,
  choices: z.array(choiceSchema).nullish().catch(undefined),
  usage: usageSchema.nullish().catch(undefined),
  // Groq repeats usage under `x_groq`; read when the top-level one is missing.
  x_groq: z
    .object({ usage: usageSchema.nullish().catch(undefined) })
    .nullish()
    .catch(undefined),
  error: errorSchema.nullish().catch(undefined),
  // Perplexity's sources. @see https://docs.perplexity.ai/api-reference/chat-completions-post
  citations: z.array(z.unknown()).nullish().catch(undefined),
  search_results: z.array(z.unknown()).nullish().catch(undefined),
});

/** A parsed chunk or completion. */
/** One parsed chunk; `rawUsage` is its usage object as received (before the schema), when it had one. */
export type ChatChunk = z.infer<typeof chunkSchema> & { rawUsage?: unknown };
/** A parsed delta or non-streamed message. */
export type ChatDelta = z.infer<typeof deltaSchema>;
/** One parsed tool-call fragment. */
export type ChatToolCallDelta = z.infer<typeof toolCallDeltaSchema>;
/** Parsed usage. */
export type ChatUsage = z.infer<typeof usageSchema>;

/**
 * Parses one SSE `data:` payload; `undefined` when it is not JSON or not an object (such a line is
 * skipped, so one bad line does not end a stream that is otherwise fine).
 *
 * Nearly every chunk of a stream is a plain text or reasoning delta; those are checked with
 * {@link isPlainDeltaChunk} and used as parsed (zod costs about as much as `JSON.parse` itself, on
 * every token). Anything else (tool calls, usage, errors, odd types) goes through the lenient schema.
 */
export function parseChunk(data: string): ChatChunk | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (isPlainDeltaChunk(value)) return value;
  if (isPlainUsageChunk(value)) {
    // The usage object as received is also what the schema would pass on (every field it reads
    // has its type), so it serves as both the parsed usage and `rawUsage`: no zod on the chunk that
    // ends nearly every stream (~120 µs a stream).
    const rawUsage = value.usage ?? value.x_groq?.usage;
    if (rawUsage !== undefined && rawUsage !== null) value.rawUsage = rawUsage;
    return value;
  }
  const parsed = chunkSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const record = value as JsonObject;
  const rawUsage = record.usage ?? (isObject(record.x_groq) ? record.x_groq.usage : undefined);
  return rawUsage === undefined || rawUsage === null ? parsed.data : { ...parsed.data, rawUsage };
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `undefined`, `null` or a string: what `optionalString` keeps unchanged. */
function isNullishString(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'string';
}

/**
 * Whether a parsed chunk is one the schema would pass through unchanged in every field the stream
 * mapper reads: no error, usage, citations or `x_groq`; choices that are objects with a `delta` of
 * string (or null) text, reasoning, refusal and role, and no tool calls, content parts, reasoning
 * details or `message`. Keys the schema would strip are never read by the mapper, so the raw object
 * serves as the parsed chunk. When this says no, the schema decides.
 */
export function isPlainDeltaChunk(value: unknown): value is ChatChunk {
  if (!isObject(value)) return false;
  if (
    !isNullishString(value.id) ||
    !isNullishString(value.model) ||
    (value.error !== undefined && value.error !== null) ||
    (value.usage !== undefined && value.usage !== null) ||
    (value.x_groq !== undefined && value.x_groq !== null) ||
    (value.citations !== undefined && value.citations !== null) ||
    (value.search_results !== undefined && value.search_results !== null)
  ) {
    return false;
  }
  const choices = value.choices;
  if (choices === undefined || choices === null) return true;
  if (!Array.isArray(choices)) return false;
  for (const choice of choices) {
    if (!isObject(choice)) return false;
    const index = choice.index;
    if (index !== undefined && index !== null && typeof index !== 'number') return false;
    if (choice.message !== undefined || !isNullishString(choice.finish_reason)) return false;
    const delta = choice.delta;
    if (delta === undefined || delta === null) continue;
    if (
      !isObject(delta) ||
      !isNullishString(delta.content) ||
      !isNullishString(delta.reasoning_content) ||
      !isNullishString(delta.reasoning) ||
      !isNullishString(delta.refusal) ||
      !isNullishString(delta.role) ||
      (delta.tool_calls !== undefined && delta.tool_calls !== null) ||
      (delta.reasoning_details !== undefined && delta.reasoning_details !== null)
    ) {
      return false;
    }
  }
  return true;
}

/** `undefined`, `null` or a number: what `optionalNumber` keeps unchanged. */
function isNullishNumber(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'number';
}

/** Whether a usage object is one {@link usageSchema} would pass on unchanged in every field it declares. */
export function isPlainUsage(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (!isObject(value)) return false;
  if (
    !isNullishNumber(value.prompt_tokens) ||
    !isNullishNumber(value.completion_tokens) ||
    !isNullishNumber(value.total_tokens) ||
    !isNullishNumber(value.prompt_cache_hit_tokens) ||
    !isNullishNumber(value.prompt_cache_miss_tokens)
  ) {
    return false;
  }
  const prompt = value.prompt_tokens_details;
  if (
    prompt !== undefined &&
    prompt !== null &&
    (!isObject(prompt) || !isNullishNumber(prompt.cached_tokens) || !isNullishNumber(prompt.cache_write_tokens))
  ) {
    return false;
  }
  const completion = value.completion_tokens_details;
  return (
    completion === undefined ||
    completion === null ||
    (isObject(completion) && isNullishNumber(completion.reasoning_tokens))
  );
}

/**
 * Whether a chunk that {@link isPlainDeltaChunk} refused only for its usage (top level or Groq's
 * `x_groq`) is otherwise plain, with a usage {@link isPlainUsage} accepts: the chunk that carries the
 * stream's usage (`stream_options.include_usage`, Groq's last chunk) then skips the schema too.
 */
export function isPlainUsageChunk(value: unknown): value is ChatChunk & { x_groq?: { usage?: unknown } | null } {
  if (!isObject(value)) return false;
  const groq = value.x_groq;
  if (groq !== undefined && groq !== null && (!isObject(groq) || !isPlainUsage(groq.usage))) return false;
  if (!isPlainUsage(value.usage)) return false;
  const { usage, x_groq, ...rest } = value;
  return isPlainDeltaChunk(rest);
}

/** One model of `GET /models`: OpenAI's `{id, created}` plus the context fields some vendors add. */
const modelSchema = z
  .object({
    id: z.string(),
    created: optionalNumber,
    name: optionalString,
    display_name: optionalString,
    // OpenRouter, Together: `context_length`; Groq: `context_window`; Mistral: `max_context_length`.
    context_length: optionalNumber,
    context_window: optionalNumber,
    max_context_length: optionalNumber,
    max_completion_tokens: optionalNumber,
    top_provider: z.object({ max_completion_tokens: optionalNumber }).nullish().catch(undefined),
  })
  .nullable()
  .catch(null);

/**
 * The `GET /models` body: `{data: [...]}` (OpenAI and most) or a bare array (Together).
 * @see https://platform.openai.com/docs/api-reference/models/list
 */
export const modelListSchema = z.union([z.object({ data: z.array(modelSchema) }), z.array(modelSchema)]);
