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
export type ChatChunk = z.infer<typeof chunkSchema>;
/** A parsed delta or non-streamed message. */
export type ChatDelta = z.infer<typeof deltaSchema>;
/** One parsed tool-call fragment. */
export type ChatToolCallDelta = z.infer<typeof toolCallDeltaSchema>;
/** Parsed usage. */
export type ChatUsage = z.infer<typeof usageSchema>;

/**
 * Parses one SSE `data:` payload; `undefined` when it is not JSON or not an object (such a line is
 * skipped, so one bad line does not end a stream that is otherwise fine).
 */
export function parseChunk(data: string): ChatChunk | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  const parsed = chunkSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
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
