import { z } from 'zod';

// What Cohere's v2 Chat API sends (zod, lenient: unknown fields pass, nearly every field optional)
// and what the adapter builds (plain interfaces).
// @see https://docs.cohere.com/reference/chat
// @see https://docs.cohere.com/reference/chat-stream

/** `usage`: billed units, the tokens the model saw, and how many prompt tokens hit the cache. */
export const cohereUsageSchema = z.looseObject({
  billed_units: z.looseObject({ input_tokens: z.number().optional(), output_tokens: z.number().optional() }).optional(),
  tokens: z.looseObject({ input_tokens: z.number().optional(), output_tokens: z.number().optional() }).optional(),
  cached_tokens: z.number().optional(),
});

/** Token counts as Cohere reports them. */
export type CohereUsage = z.infer<typeof cohereUsageSchema>;

const toolCallSchema = z.looseObject({
  id: z.string().optional(),
  type: z.string().optional(),
  function: z.looseObject({ name: z.string().optional(), arguments: z.string().optional() }).optional(),
});

/** The `content` of a `content-start` / `content-delta` event's message delta. */
export const cohereContentDeltaSchema = z.looseObject({
  type: z.string().optional(),
  text: z.string().optional(),
  thinking: z.string().optional(),
});

/** The `content` of a content event's message delta. */
export type CohereContentDelta = z.infer<typeof cohereContentDeltaSchema>;

/** The `tool_calls` of a `tool-call-start` / `tool-call-delta` event's message delta. */
export const cohereToolCallDeltaSchema = toolCallSchema;

/**
 * One streamed event (`message-start`, `content-start`, `content-delta`, `content-end`,
 * `tool-plan-delta`, `tool-call-start`, `tool-call-delta`, `tool-call-end`, `citation-start`,
 * `citation-end`, `message-end`, `debug`), all in one lenient shape. `content` and `tool_calls` are
 * objects in deltas but arrays in `message-start`, so they are read with the schemas above.
 */
export const cohereStreamEventSchema = z.looseObject({
  type: z.string(),
  id: z.string().optional(),
  index: z.number().optional(),
  delta: z
    .looseObject({
      message: z
        .looseObject({
          role: z.string().optional(),
          content: z.unknown().optional(),
          tool_plan: z.string().optional(),
          tool_calls: z.unknown().optional(),
        })
        .optional(),
      finish_reason: z.string().optional(),
      usage: cohereUsageSchema.optional(),
      error: z.string().optional(),
    })
    .optional(),
});

/** One streamed event. */
export type CohereStreamEvent = z.infer<typeof cohereStreamEventSchema>;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/**
 * Whether a parsed stream event is one {@link cohereStreamEventSchema} accepts and passes through
 * unchanged, checked by hand because nearly every event is a `content-delta` and zod costs about as
 * much as `JSON.parse` on each. Events with `usage` (and any odd field) are left to the schema.
 */
export function isPlainEvent(value: unknown): value is CohereStreamEvent {
  if (!isObject(value) || typeof value.type !== 'string' || !isOptionalString(value.id)) return false;
  if (value.index !== undefined && typeof value.index !== 'number') return false;
  const delta = value.delta;
  if (delta === undefined) return true;
  if (
    !isObject(delta) ||
    delta.usage !== undefined ||
    !isOptionalString(delta.finish_reason) ||
    !isOptionalString(delta.error)
  ) {
    return false;
  }
  const message = delta.message;
  if (message === undefined) return true;
  return isObject(message) && isOptionalString(message.role) && isOptionalString(message.tool_plan);
}

/** Whether a content delta is one {@link cohereContentDeltaSchema} passes through unchanged. */
export function isPlainContent(value: unknown): value is CohereContentDelta {
  return (
    isObject(value) && isOptionalString(value.type) && isOptionalString(value.text) && isOptionalString(value.thinking)
  );
}

/** A non-streamed chat response. */
export const cohereChatResponseSchema = z.looseObject({
  id: z.string().optional(),
  finish_reason: z.string().optional(),
  message: z
    .looseObject({
      role: z.string().optional(),
      content: z
        .array(
          z.looseObject({ type: z.string().optional(), text: z.string().optional(), thinking: z.string().optional() }),
        )
        .optional(),
      tool_plan: z.string().optional(),
      tool_calls: z.array(toolCallSchema).optional(),
      citations: z.array(z.unknown()).optional(),
    })
    .optional(),
  usage: cohereUsageSchema.optional(),
});

/** A non-streamed chat response. */
export type CohereChatResponse = z.infer<typeof cohereChatResponseSchema>;

/**
 * `GET /v1/models`.
 * @see https://docs.cohere.com/reference/list-models
 */
export const cohereModelListSchema = z.looseObject({
  models: z
    .array(
      z.looseObject({
        name: z.string(),
        endpoints: z.array(z.string()).optional(),
        context_length: z.number().optional(),
      }),
    )
    .optional(),
  next_page_token: z.string().nullable().optional(),
});

// ---- What the adapter sends ----

/** A user content part. */
export type CohereUserContent = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** An assistant content part. */
export type CohereAssistantContent = { type: 'text'; text: string } | { type: 'thinking'; thinking: string };

/** A tool call an assistant message carries; `arguments` is JSON text. */
export interface CohereToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** One request message. */
export type CohereMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | CohereUserContent[] }
  | { role: 'assistant'; content?: CohereAssistantContent[]; tool_plan?: string; tool_calls?: CohereToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: Array<{ type: 'text'; text: string }> };

/** A tool definition. */
export interface CohereTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

/** The body of `POST /v2/chat`. */
export interface CohereChatRequest {
  model: string;
  messages: CohereMessage[];
  stream: boolean;
  tools?: CohereTool[];
  tool_choice?: 'REQUIRED' | 'NONE';
  max_tokens?: number;
  temperature?: number;
  p?: number;
  stop_sequences?: string[];
  thinking?: { type: 'enabled' | 'disabled'; token_budget?: number };
  [field: string]: unknown;
}
