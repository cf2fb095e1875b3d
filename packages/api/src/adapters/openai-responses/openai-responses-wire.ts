import { z } from 'zod';

// Lenient schemas of what the OpenAI Responses API sends: a field of the wrong type becomes
// `undefined` instead of failing the whole event, and unknown fields pass through. Only the
// structural events are validated with these; the hot delta events are read field by field.
// @see https://platform.openai.com/docs/api-reference/responses-streaming

const optionalString = z.string().optional().catch(undefined);
const optionalNumber = z.number().optional().catch(undefined);
const nullableString = z.string().nullish().catch(undefined);

/**
 * The `usage` object: `input_tokens` counts every input token (cached ones included),
 * `output_tokens` every output token (reasoning included).
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage
 */
export const openaiResponsesUsageSchema = z.looseObject({
  input_tokens: optionalNumber,
  input_tokens_details: z
    .looseObject({ cached_tokens: optionalNumber, cache_write_tokens: optionalNumber })
    .nullish()
    .catch(undefined),
  output_tokens: optionalNumber,
  output_tokens_details: z.looseObject({ reasoning_tokens: optionalNumber }).nullish().catch(undefined),
});

/** The usage object as received. */
export type OpenAIResponsesUsage = z.infer<typeof openaiResponsesUsageSchema>;

/** `error` of a failed response, and the payload of an in-stream `error` event. */
export const openaiResponsesErrorSchema = z.looseObject({
  code: nullableString,
  message: optionalString,
  param: nullableString,
  type: optionalString,
});

/** An error as received (every field may be missing). */
export type OpenAIResponsesError = z.infer<typeof openaiResponsesErrorSchema>;

const textPartSchema = z.looseObject({
  type: optionalString,
  text: optionalString,
  refusal: optionalString,
});

/**
 * An output item (`message`, `reasoning`, `function_call`, `custom_tool_call`, or a server-side
 * tool call this adapter ignores), as `response.output_item.added` / `.done` carry it.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-output
 */
export const openaiResponsesOutputItemSchema = z.looseObject({
  type: z.string().catch('unknown'),
  id: optionalString,
  status: optionalString,
  // message
  role: optionalString,
  phase: nullableString,
  content: z.array(textPartSchema).nullish().catch(undefined),
  // reasoning
  summary: z.array(textPartSchema).nullish().catch(undefined),
  encrypted_content: nullableString,
  // function_call and custom_tool_call
  call_id: optionalString,
  name: optionalString,
  arguments: optionalString,
  input: optionalString,
});

/** An output item as received. */
export type OpenAIResponsesOutputItem = z.infer<typeof openaiResponsesOutputItemSchema>;

/**
 * The `response` object of `response.created`, `.completed`, `.incomplete` and `.failed`.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
export const openaiResponsesResponseSchema = z.looseObject({
  id: optionalString,
  model: optionalString,
  status: optionalString,
  incomplete_details: z.looseObject({ reason: optionalString }).nullish().catch(undefined),
  error: openaiResponsesErrorSchema.nullish().catch(undefined),
  usage: openaiResponsesUsageSchema.nullish().catch(undefined),
});

/** A response object as received. */
export type OpenAIResponsesResponse = z.infer<typeof openaiResponsesResponseSchema>;

/**
 * One model of `GET /models`; the list's `data` is read item by item so one odd entry does not
 * hide the others.
 *
 * @see https://platform.openai.com/docs/api-reference/models/list
 */
export const openaiModelSchema = z.looseObject({ id: z.string(), created: optionalNumber, owned_by: optionalString });

/** The body of `GET /models`. */
export const openaiModelListSchema = z.looseObject({ data: z.array(z.unknown()).catch([]) });

// Structural checks: each says whether a value is one its schema passes on unchanged (every declared
// field absent or of its type), so the value as parsed from JSON serves as the schema's output. The
// once-per-item and once-per-response events of every stream skip zod that way; anything else (a
// field of another type, an error object) goes through the schema, which decides as before.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What `optionalString` keeps unchanged (it turns `null` into `undefined`). */
function isOptionalStringValue(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/** What `optionalNumber` keeps unchanged. */
function isOptionalNumberValue(value: unknown): boolean {
  return value === undefined || typeof value === 'number';
}

/** What `nullableString` keeps unchanged. */
function isNullableStringValue(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'string';
}

/** Whether `value` is a usage object {@link openaiResponsesUsageSchema} passes on unchanged. */
export function isPlainResponsesUsage(value: unknown): boolean {
  if (!isRecord(value)) return false;
  if (!isOptionalNumberValue(value.input_tokens) || !isOptionalNumberValue(value.output_tokens)) return false;
  const input = value.input_tokens_details;
  if (
    input !== undefined &&
    input !== null &&
    (!isRecord(input) ||
      !isOptionalNumberValue(input.cached_tokens) ||
      !isOptionalNumberValue(input.cache_write_tokens))
  ) {
    return false;
  }
  const output = value.output_tokens_details;
  return (
    output === undefined || output === null || (isRecord(output) && isOptionalNumberValue(output.reasoning_tokens))
  );
}

/** Whether `value` is a response object {@link openaiResponsesResponseSchema} passes on unchanged (without an error). */
export function isPlainResponsesResponse(value: unknown): value is OpenAIResponsesResponse {
  if (
    !isRecord(value) ||
    !isOptionalStringValue(value.id) ||
    !isOptionalStringValue(value.model) ||
    !isOptionalStringValue(value.status) ||
    (value.error !== undefined && value.error !== null)
  ) {
    return false;
  }
  const incomplete = value.incomplete_details;
  if (
    incomplete !== undefined &&
    incomplete !== null &&
    (!isRecord(incomplete) || !isOptionalStringValue(incomplete.reason))
  ) {
    return false;
  }
  const usage = value.usage;
  return usage === undefined || usage === null || isPlainResponsesUsage(usage);
}

function isPlainTextParts(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (!Array.isArray(value)) return false;
  for (const part of value) {
    if (
      !isRecord(part) ||
      !isOptionalStringValue(part.type) ||
      !isOptionalStringValue(part.text) ||
      !isOptionalStringValue(part.refusal)
    ) {
      return false;
    }
  }
  return true;
}

/** Whether `value` is an output item {@link openaiResponsesOutputItemSchema} passes on unchanged. */
export function isPlainResponsesOutputItem(value: unknown): value is OpenAIResponsesOutputItem {
  return (
    isRecord(value) &&
    typeof value.type === 'string' &&
    isOptionalStringValue(value.id) &&
    isOptionalStringValue(value.status) &&
    isOptionalStringValue(value.role) &&
    isNullableStringValue(value.phase) &&
    isPlainTextParts(value.content) &&
    isPlainTextParts(value.summary) &&
    isNullableStringValue(value.encrypted_content) &&
    isOptionalStringValue(value.call_id) &&
    isOptionalStringValue(value.name) &&
    isOptionalStringValue(value.arguments) &&
    isOptionalStringValue(value.input)
  );
}

/** A response object as the schema reads it (the value itself when it is plain), or undefined when it does not fit. */
export function readResponsesResponse(value: unknown): OpenAIResponsesResponse | undefined {
  if (isPlainResponsesResponse(value)) return value;
  const parsed = openaiResponsesResponseSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** An output item as the schema reads it (the value itself when it is plain), or undefined when it does not fit. */
export function readResponsesOutputItem(value: unknown): OpenAIResponsesOutputItem | undefined {
  if (isPlainResponsesOutputItem(value)) return value;
  const parsed = openaiResponsesOutputItemSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
