import { z } from 'zod';

/**
 * Wire types of Ollama's native chat API (`POST /api/chat`). Requests are built here, so they are
 * plain interfaces; responses (one JSON object, or NDJSON lines while streaming) are lenient zod
 * schemas that keep unknown fields.
 *
 * @see https://docs.ollama.com/api/chat
 * @see https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
 */

/** A tool call as Ollama sends and receives it: `arguments` is a JSON object, not text. */
export interface OllamaToolCall {
  /** Sent by recent Ollama versions; older ones send none. */
  id?: string;
  function: { index?: number; name: string; arguments: Record<string, unknown> };
}

/** One message of the conversation. */
export interface OllamaMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Base64 images (no `data:` prefix), for multimodal models. */
  images?: string[];
  /** The model's earlier reasoning, replayed on assistant messages. */
  thinking?: string;
  tool_calls?: OllamaToolCall[];
  /** On `tool` messages: the function that produced this result. */
  tool_name?: string;
  /** On `tool` messages: the id of the call answered, when Ollama gave the call one. */
  tool_call_id?: string;
}

/** A function the model may call (OpenAI's shape). */
export interface OllamaTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** The request body of `/api/chat`. */
export interface OllamaChatRequest {
  model: string;
  messages: OllamaMessage[];
  /** Ollama streams unless told otherwise; always sent explicitly. */
  stream: boolean;
  tools?: OllamaTool[];
  /** `true`/`false`, or `low`/`medium`/`high` for models with levels (gpt-oss). */
  think?: boolean | 'low' | 'medium' | 'high';
  options?: { num_predict?: number; temperature?: number; top_p?: number; stop?: string[]; [key: string]: unknown };
  /** How long the model stays loaded after the request (`"5m"`, seconds, `-1` forever, `0` unload). */
  keep_alive?: string | number;
  [key: string]: unknown;
}

const toolCallSchema = z.looseObject({
  id: z.string().optional(),
  function: z.looseObject({
    index: z.number().optional(),
    name: z.string(),
    /** An object; a broken server may send text (kept so it can be reported). */
    arguments: z.unknown().optional(),
  }),
});

/** A tool call the model made. */
export type OllamaResponseToolCall = z.infer<typeof toolCallSchema>;

/** One NDJSON line of a streamed reply, or the whole reply (`stream: false`). */
export const ollamaChatResponseSchema = z.looseObject({
  model: z.string().optional(),
  created_at: z.string().optional(),
  message: z
    .looseObject({
      role: z.string().optional(),
      content: z.string().optional(),
      thinking: z.string().optional(),
      tool_calls: z.array(toolCallSchema).optional(),
    })
    .optional(),
  done: z.boolean().optional(),
  done_reason: z.string().optional(),
  prompt_eval_count: z.number().optional(),
  eval_count: z.number().optional(),
  /** Present only on an error line (or an error body). */
  error: z.string().optional(),
});

/** A parsed reply or reply line. */
export type OllamaChatResponse = z.infer<typeof ollamaChatResponseSchema>;

/** `GET /api/tags`. @see https://docs.ollama.com/api/tags */
export const ollamaTagsSchema = z.looseObject({
  models: z
    .array(z.looseObject({ name: z.string(), model: z.string().optional(), modified_at: z.string().optional() }))
    .optional(),
});
