import type {
  ContentBlockParam,
  MessageCreateParamsBase,
  MessageParam,
  TextBlockParam,
  ToolChoice,
  ToolUnion,
} from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';

/**
 * Wire types of the Anthropic Messages API. Requests are built by this adapter and typed with the
 * official SDK's parameter types (so a field the API does not know fails to compile); responses and
 * stream events cross a trust boundary, so they are lenient zod schemas: unknown fields pass
 * through, fields are optional or nullable, and a field of an unexpected type drops only that field.
 *
 * @see https://docs.claude.com/en/api/messages
 * @see https://docs.claude.com/en/docs/build-with-claude/streaming
 */

/** The request body this adapter sends (the SDK's type, `stream` set per call). */
export type AnthropicRequestBody = MessageCreateParamsBase;
/** One message of `messages`. */
export type AnthropicMessageParam = MessageParam;
/** One content block of a message in a request. */
export type AnthropicContentBlockParam = ContentBlockParam;
/** A text block of `system`. */
export type AnthropicSystemBlock = TextBlockParam;
/** One entry of `tools`. */
export type AnthropicToolParam = ToolUnion;
/** `tool_choice`. */
export type AnthropicToolChoice = ToolChoice;

const count = z.number().nullish().catch(undefined);

/** `usage` of a message, `message_start` and `message_delta` (the latter cumulative). */
export const anthropicUsageSchema = z.looseObject({
  /** Input tokens that were neither read from nor written to the cache. */
  input_tokens: count,
  cache_creation_input_tokens: count,
  cache_read_input_tokens: count,
  output_tokens: count,
  output_tokens_details: z.looseObject({ thinking_tokens: count }).nullish().catch(undefined),
});

/** Token counts as Anthropic reports them. */
export type AnthropicUsage = z.infer<typeof anthropicUsageSchema>;

/** A content block as a response or `content_block_start` carries it; only `type` is required. */
export const anthropicContentBlockSchema = z.looseObject({ type: z.string() });

/** A content block of any type, fields kept as received. */
export type AnthropicContentBlock = z.infer<typeof anthropicContentBlockSchema>;

const optionalString = z.string().nullish().catch(undefined);
const optionalRecord = z.record(z.string(), z.unknown()).nullish().catch(undefined);

/** A whole (non-streamed) message. @see https://docs.claude.com/en/api/messages */
export const anthropicMessageSchema = z.looseObject({
  id: optionalString,
  model: optionalString,
  content: z.array(anthropicContentBlockSchema).catch([]),
  stop_reason: optionalString,
  stop_sequence: optionalString,
  /** Why a refusal stopped the model (category, explanation). */
  stop_details: optionalRecord,
  /** The code-execution container, reusable on the next request. */
  container: optionalRecord,
  usage: anthropicUsageSchema.nullish().catch(undefined),
});

/** A whole message. */
export type AnthropicMessage = z.infer<typeof anthropicMessageSchema>;

/** `message_start`: the message with empty content and the input usage. */
export const messageStartEventSchema = z.looseObject({
  type: z.literal('message_start'),
  message: z.looseObject({
    id: optionalString,
    model: optionalString,
    usage: anthropicUsageSchema.nullish().catch(undefined),
  }),
});

/** `content_block_start`: a block opens at `index`. */
export const contentBlockStartEventSchema = z.looseObject({
  type: z.literal('content_block_start'),
  index: z.number(),
  content_block: anthropicContentBlockSchema,
});

/** `content_block_stop`: the block at `index` is complete. */
export const contentBlockStopEventSchema = z.looseObject({
  type: z.literal('content_block_stop'),
  index: z.number(),
});

/** `message_delta`: stop reason and cumulative usage. */
export const messageDeltaEventSchema = z.looseObject({
  type: z.literal('message_delta'),
  delta: z
    .looseObject({
      stop_reason: optionalString,
      stop_sequence: optionalString,
      stop_details: optionalRecord,
      container: optionalRecord,
    })
    .catch({}),
  usage: anthropicUsageSchema.nullish().catch(undefined),
});

/** Absent, `null` or of the type `typeof` names: what a `.nullish()` field keeps unchanged. */
function isNullishOf(value: unknown, type: 'string' | 'number'): boolean {
  return value === undefined || value === null || typeof value === type;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a usage object is one {@link anthropicUsageSchema} passes on unchanged (every declared field of its type). */
export function isPlainAnthropicUsage(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (!isRecord(value)) return false;
  if (
    !isNullishOf(value.input_tokens, 'number') ||
    !isNullishOf(value.cache_creation_input_tokens, 'number') ||
    !isNullishOf(value.cache_read_input_tokens, 'number') ||
    !isNullishOf(value.output_tokens, 'number')
  ) {
    return false;
  }
  const details = value.output_tokens_details;
  return (
    details === undefined || details === null || (isRecord(details) && isNullishOf(details.thinking_tokens, 'number'))
  );
}

/**
 * Whether a `message_start` event is one {@link messageStartEventSchema} passes on unchanged, so
 * the event as parsed from JSON serves as the schema's output (zod on it costs more than the
 * stream's other once-per-message work together). When this says no, the schema decides.
 */
export function isPlainMessageStartEvent(value: unknown): value is z.infer<typeof messageStartEventSchema> {
  if (!isRecord(value) || value.type !== 'message_start') return false;
  const message = value.message;
  return (
    isRecord(message) &&
    isNullishOf(message.id, 'string') &&
    isNullishOf(message.model, 'string') &&
    isPlainAnthropicUsage(message.usage)
  );
}

/** Whether a `message_delta` event is one {@link messageDeltaEventSchema} passes on unchanged (see above). */
export function isPlainMessageDeltaEvent(value: unknown): value is z.infer<typeof messageDeltaEventSchema> {
  if (!isRecord(value) || value.type !== 'message_delta') return false;
  const delta = value.delta;
  return (
    isRecord(delta) &&
    isNullishOf(delta.stop_reason, 'string') &&
    isNullishOf(delta.stop_sequence, 'string') &&
    (delta.stop_details === undefined || delta.stop_details === null || isRecord(delta.stop_details)) &&
    (delta.container === undefined || delta.container === null || isRecord(delta.container)) &&
    isPlainAnthropicUsage(value.usage)
  );
}

/** `error`: an error after the 200 response started (e.g. `overloaded_error`). */
export const streamErrorEventSchema = z.looseObject({
  type: z.literal('error'),
  error: z.looseObject({ type: optionalString, message: optionalString }).catch({}),
});

/** The delta of a `content_block_delta` event. */
export interface ContentBlockDelta {
  /** `text_delta`, `thinking_delta`, `signature_delta`, `input_json_delta`, `citations_delta`, ... */
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  partial_json?: string;
}

/** A `content_block_delta` event. */
export interface ContentBlockDeltaEvent {
  index: number;
  delta: ContentBlockDelta;
}

/**
 * Reads a `content_block_delta` event. Deltas are nearly every event of a stream, so they are
 * checked by hand rather than by a zod schema (which costs about half a `JSON.parse` per event);
 * the rules are the same: `index` must be a number and `delta.type` a string, and a text field of
 * another type is dropped. Returns undefined for an event of another shape.
 */
export function readContentBlockDelta(payload: Record<string, unknown>): ContentBlockDeltaEvent | undefined {
  const index = payload.index;
  const delta = payload.delta;
  if (typeof index !== 'number' || typeof delta !== 'object' || delta === null) return undefined;
  const fields = delta as Record<string, unknown>;
  if (typeof fields.type !== 'string') return undefined;
  const read: ContentBlockDelta = { type: fields.type };
  if (typeof fields.text === 'string') read.text = fields.text;
  if (typeof fields.thinking === 'string') read.thinking = fields.thinking;
  if (typeof fields.signature === 'string') read.signature = fields.signature;
  if (typeof fields.partial_json === 'string') read.partial_json = fields.partial_json;
  return { index, delta: read };
}

/** `GET /v1/models` entry. @see https://docs.claude.com/en/api/models-list */
export const anthropicModelInfoSchema = z.looseObject({
  id: z.string(),
  display_name: optionalString,
  created_at: optionalString,
  max_input_tokens: count,
  max_tokens: count,
});
