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
