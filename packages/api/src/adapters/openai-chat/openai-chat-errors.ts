import { classifyHttpError, type HttpErrorRule } from '../../shared/classify-http-error.js';
import { extractErrorDetails } from '../../shared/error-body.js';
import { createLlmError } from '../../spec/create-llm-error.js';
import type { LlmError } from '../../spec/llm-error.js';
import { isContextOverflowError } from '../../spec/llm-error-classes.js';

/**
 * The wording Chat Completions servers use, tried before the shared generic rules. Matched against
 * the body's `type code status message`. No rule is tied to a status unless the code is a bare
 * number, so the same table classifies errors that arrive inside a 200 stream (no status at all).
 *
 * | reason           | wording (vendor)                                                                                   |
 * | ---------------- | -------------------------------------------------------------------------------------------------- |
 * | context_overflow | `context_length_exceeded`, "maximum context length is N tokens" (OpenAI, vLLM, DeepSeek, Groq),     |
 * |                  | "exceeded model token limit: N (requested: M)" (Moonshot), `model_context_window_exceeded`,         |
 * |                  | "Prompt 超长" / code 1261 (Zhipu), "Range of input length should be" (DashScope)                   |
 * | quota            | `insufficient_quota`, "exceeded your current quota" (OpenAI, Groq), "Insufficient Balance" (DeepSeek |
 * |                  | 402), `exceeded_current_quota_error` (Moonshot), `Arrearage` (DashScope), "欠费"/code 1113 and       |
 * |                  | "余额不足" (Zhipu, HTTP 429), "usage limit" (Kimi), credits (OpenRouter 402)                         |
 * | rate_limit       | `rate_limit_exceeded` (OpenAI), `rate_limit_reached_error` (Moonshot), "并发数过高"/"频率过高" and    |
 * |                  | codes 1302/1303 (Zhipu); "Request too large … tokens per min" is a rate limit a retry cannot pass    |
 * | overloaded       | `server_is_overloaded`, "engine is currently overloaded" (OpenAI; Moonshot sends it as HTTP 429),    |
 * |                  | "Server Overloaded" (DeepSeek 503), "访问量过大"/codes 1305/1312 (Zhipu), `insufficient_system_resource` |
 * | content_filter   | `content_filter`, "content management policy"/`ResponsibleAIPolicyViolation` (Azure), `invalid_prompt` |
 * |                  | (OpenAI), `data_inspection_failed` (DashScope), "敏感内容"/code 1301 (Zhipu), moderation (OpenRouter) |
 * | auth             | `invalid_api_key`, "Incorrect API key", `invalid_authentication_error` (Moonshot)                   |
 * | not_found        | `model_not_found`, "does not exist" (OpenAI), "模型不存在" (Zhipu)                                   |
 *
 * @see https://platform.openai.com/docs/guides/error-codes
 * @see https://learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter
 * @see https://api-docs.deepseek.com/quick_start/error_codes
 * @see https://docs.bigmodel.cn/cn/faq/api-code
 * @see https://platform.moonshot.ai/docs/api/chat
 * @see https://openrouter.ai/docs/api-reference/errors
 */
export const OPENAI_CHAT_ERROR_RULES: readonly HttpErrorRule[] = [
  {
    reason: 'context_overflow',
    pattern:
      /context[_ ]length[_ ]exceeded|maximum context length|model_context_window_exceeded|exceeded model token limit|context window|prompt is too long|input is too long|too many (?:input )?tokens|reduce the length of the (?:messages|prompt)|range of input length|prompt 超长|上下文.*超/i,
  },
  { reason: 'context_overflow', statuses: [400], pattern: /\b1261\b/ },
  {
    reason: 'quota',
    isRetryable: false,
    pattern:
      /insufficient[_ ]quota|exceeded your current quota|exceeded_current_quota|insufficient[_ ]balance|insufficient (?:credits|funds)|credit balance|arrearage|usage limit|欠费|余额不足|billing[_ ]hard[_ ]limit/i,
  },
  { reason: 'quota', isRetryable: false, statuses: [429], pattern: /\b(?:1113|1304|1308|1310)\b/ },
  { reason: 'rate_limit', isRetryable: false, pattern: /request too large for .* per min/i },
  {
    reason: 'overloaded',
    pattern:
      /server_is_overloaded|engine_overloaded|overloaded|insufficient_system_resource|访问量过大|服务(?:器)?繁忙/i,
  },
  { reason: 'overloaded', statuses: [429, 500, 503], pattern: /\b(?:1305|1312)\b/ },
  {
    reason: 'rate_limit',
    pattern: /rate[_ ]limit|rate_limit_reached|too many requests|并发数过高|频率过高/i,
  },
  { reason: 'rate_limit', statuses: [429], pattern: /\b(?:1302|1303)\b/ },
  {
    reason: 'content_filter',
    pattern:
      /content[_ ]filter|content management policy|content[_ ]policy[_ ]violation|responsibleaipolicyviolation|invalid_prompt|data_inspection_failed|moderation|敏感内容/i,
  },
  { reason: 'content_filter', statuses: [400, 403], pattern: /\b1301\b/ },
  {
    reason: 'auth',
    statuses: [400, 401, 403],
    pattern: /invalid_api_key|incorrect api key|invalid api key|invalid_authentication/i,
  },
  { reason: 'not_found', statuses: [400, 404], pattern: /model_not_found|does not exist|模型不存在/i },
];

// Moonshot: "Your request exceeded model token limit: 262144 (requested: 269030)", a shape the
// shared parser does not know.
const MOONSHOT_TOKENS = /token limit:?\s*(\d[\d,]*)\s*\(requested:?\s*(\d[\d,]*)\)/i;

/**
 * Adds the token counts of context-overflow wordings the shared parser misses (Moonshot's), so the
 * loop can compact by the right amount. Any other error is returned unchanged.
 */
export function withOverflowTokenCounts(error: LlmError): LlmError {
  if (!isContextOverflowError(error) || error.requestedTokens !== undefined) return error;
  const message = extractErrorDetails(error.body).message ?? '';
  const match = MOONSHOT_TOKENS.exec(message);
  if (match?.[1] === undefined || match[2] === undefined) return error;
  return createLlmError({
    reason: 'context_overflow',
    message: error.message,
    isRetryable: error.isRetryable,
    requestedTokens: Number(match[2].replace(/,/g, '')),
    limitTokens: Number(match[1].replace(/,/g, '')),
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.providerId === undefined ? {} : { providerId: error.providerId }),
    ...(error.url === undefined ? {} : { url: error.url }),
    body: error.body,
    cause: error.cause,
  });
}

/**
 * Classifies an `error` that arrived inside a 200 stream (`data: {"error": {...}}`, OpenAI and vLLM;
 * next to `finish_reason: "error"` at OpenRouter) with the same table as HTTP errors. A numeric
 * `code` in 400-599 (vLLM, OpenRouter) counts as the status; without one an unrecognised error is a
 * retryable `server` error, since the server failed while generating.
 *
 * @see https://openrouter.ai/docs/api-reference/streaming
 */
export function classifyStreamError(
  payload: unknown,
  context: { providerId: string; url?: string; rules?: readonly HttpErrorRule[] },
): LlmError {
  const body = { error: payload };
  const code = typeof payload === 'object' && payload !== null ? (payload as { code?: unknown }).code : undefined;
  const numericCode = typeof code === 'number' ? code : typeof code === 'string' ? Number(code) : Number.NaN;
  const status = Number.isInteger(numericCode) && numericCode >= 400 && numericCode <= 599 ? numericCode : undefined;
  const classified = withOverflowTokenCounts(
    classifyHttpError({
      status: status ?? 500,
      body,
      providerId: context.providerId,
      rules: context.rules ?? OPENAI_CHAT_ERROR_RULES,
      ...(context.url === undefined ? {} : { url: context.url }),
    }),
  );
  const vendorMessage = extractErrorDetails(body).message ?? 'no details';
  const counts = isContextOverflowError(classified)
    ? { requestedTokens: classified.requestedTokens, limitTokens: classified.limitTokens }
    : {};
  return createLlmError({
    reason: classified.reason,
    message: `Provider "${context.providerId}" reported an error in the middle of the stream: ${vendorMessage.replace(/[.\s]+$/, '')}.`,
    isRetryable: classified.isRetryable,
    providerId: context.providerId,
    body,
    ...(status === undefined ? {} : { status }),
    ...(classified.url === undefined ? {} : { url: classified.url }),
    ...counts,
  });
}
