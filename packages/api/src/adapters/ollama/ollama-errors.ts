import { classifyHttpError, type HttpErrorRule } from '../../shared/classify-http-error.js';
import { createLlmError } from '../../spec/create-llm-error.js';
import type { LlmError } from '../../spec/llm-error.js';

/**
 * Ollama's error wording (`{"error": "..."}` bodies), tried before the generic status mapping:
 *
 * | HTTP | wording                                                                      | reason           |
 * | ---- | ---------------------------------------------------------------------------- | ---------------- |
 * | 404  | `model 'llama3.2' not found` (older: `…, try pulling it first`)              | not_found        |
 * | 400  | `the input length exceeds the context length`                                | context_overflow |
 * | 503  | `server busy, please try again.  maximum pending requests exceeded`          | overloaded       |
 * | 429  | `you've reached your weekly usage limit, upgrade for higher limits` (cloud)  | quota            |
 * | 429  | `you've reached your session usage limit, please wait or upgrade` (cloud)    | rate_limit       |
 * | 500  | `model requires more system memory (X GiB) than is available (Y GiB)`        | server, not retried |
 * | 401  | `unauthorized` (Ollama Cloud, or a proxy, without a valid key)               | auth             |
 * | 400  | `registry.ollama.ai/library/x does not support tools` / `… thinking`         | invalid_request  |
 *
 * Ollama's context-overflow message states no token counts.
 *
 * @see https://docs.ollama.com/api/errors
 */
export const OLLAMA_ERROR_RULES: readonly HttpErrorRule[] = [
  { reason: 'not_found', pattern: /model ['"]?[^'"]*['"]? not found/i },
  {
    reason: 'context_overflow',
    pattern: /exceeds the context length|context length exceeded|exceeds (?:the )?(?:maximum )?context/i,
  },
  { reason: 'overloaded', pattern: /server busy|maximum pending requests/i },
  { reason: 'quota', statuses: [429], pattern: /(?:weekly|monthly) usage limit|upgrade for higher limits/i },
  { reason: 'rate_limit', statuses: [429], pattern: /usage limit|too many requests/i },
  { reason: 'server', pattern: /requires more system memory/i, isRetryable: false },
];

const MODEL_NOT_FOUND = /model ['"]?([^'"]*?)['"]? not found/i;

/**
 * Adds what to do to Ollama's errors: a missing model (`model 'x' not found`) says to run
 * `ollama pull <model>`; other errors pass unchanged.
 */
export function refineOllamaError(error: LlmError, model: string): LlmError {
  const match = error.reason === 'not_found' ? MODEL_NOT_FOUND.exec(error.message) : null;
  if (match === null) return error;
  const named = match[1];
  const missing = named === undefined || named === '' ? model : named;
  return createLlmError({
    reason: 'not_found',
    message: `Ollama does not have the model "${missing}": pull it first with \`ollama pull ${missing}\` (or check the model name and base URL).`,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.providerId === undefined ? {} : { providerId: error.providerId }),
    ...(error.url === undefined ? {} : { url: error.url }),
    body: error.body,
    cause: error,
  });
}

/**
 * Classifies an `{"error": "..."}` line Ollama sends after a stream started (the status is already
 * 200 by then): the wording decides, and unknown wording is a server error.
 */
export function ollamaStreamError(message: string, options: { providerId: string; model: string }): LlmError {
  const classified = classifyHttpError({
    status: 500,
    body: { error: message },
    providerId: options.providerId,
    rules: OLLAMA_ERROR_RULES,
  });
  const refined = refineOllamaError(classified, options.model);
  if (refined !== classified) return refined;
  return createLlmError({
    reason: classified.reason,
    message: classified.message.replace('answered HTTP 500:', 'reported an error in the stream:'),
    isRetryable: classified.isRetryable,
    providerId: options.providerId,
    body: classified.body,
  });
}
