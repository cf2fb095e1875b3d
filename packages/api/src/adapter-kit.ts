// biome-ignore-all assist/source/organizeImports: the entry is grouped by purpose under headings
// `@boxagnts/api/adapter-kit`: the parts the built-in adapters are made of, for people who write their
// own protocol adapter or provider plugin (see the README's "Writing an adapter"). An app that only
// calls providers needs none of this: everything it calls is in `@boxagnts/api`.

// ── Sending requests: no cross-origin redirects, keys masked, errors classified ───────────────────
export { type SendRequestOptions, sendRequest } from './shared/send-request.js';
export {
  type SendStreamRequestOptions,
  type StreamResponse,
  sendStreamRequest,
} from './shared/send-stream-request.js';
export { createProviderFetch, type FetchFunction, type ProviderFetchOptions } from './shared/provider-fetch.js';
export { type ResolveApiKeyOptions, resolveApiKey } from './shared/resolve-api-key.js';
export { type HeaderSource, readHeader } from './shared/headers.js';

// ── Reading streams: SSE and NDJSON parsers, event batches ────────────────────────────────────────
export {
  type ByteStream,
  type InvalidNdjsonLine,
  type ReadServerSentEventsOptions,
  readNdjson,
  readNdjsonBatches,
  readServerSentEventBatches,
  readServerSentEvents,
} from './shared/read-event-stream.js';
export {
  createSseParser,
  type SseEvent,
  type SseParser,
  type SseParserCallbacks,
} from './shared/sse-parser.js';
export {
  createNdjsonParser,
  type NdjsonParser,
  type NdjsonParserCallbacks,
} from './shared/ndjson-parser.js';
export { resolveMaxEventLength, type StreamEventLimitOptions } from './shared/stream-event-limit.js';
export { responseToStreamEvents } from './shared/response-to-stream-events.js';
export { type AsyncQueue, type AsyncQueueOptions, createAsyncQueue } from './shared/async-queue.js';

// ── Retries and stall timers: only before the first delta reaches the caller ──────────────────────
export {
  type OpenStream,
  type StreamEventBatch,
  type StreamWithRetriesOptions,
  streamWithRetries,
} from './shared/stream-with-retries.js';
export { decideRetry, type RetryDecision, type WithRetriesOptions, withRetries } from './shared/retry-policy.js';
export { type WithStallTimeoutsOptions, withStallTimeouts } from './shared/stall-timeouts.js';
export { parseDuration, parseRetryAfterHeaders, parseRetryInfoDelay } from './shared/retry-after.js';
export { abortableSleep, type LinkedAbortController, linkAbortController } from './shared/abort.js';

// ── Errors: HTTP classification tables and error construction ─────────────────────────────────────
export { type CreateLlmErrorOptions, createLlmError } from './spec/create-llm-error.js';
export {
  type ClassifyHttpErrorInput,
  classifyHttpError,
  GENERIC_HTTP_ERROR_RULES,
  type HttpErrorRule,
  reasonForStatus,
} from './shared/classify-http-error.js';
export { type ContextOverflowTokens, parseContextOverflowTokens } from './shared/context-overflow-tokens.js';
export { type ErrorBodyDetails, extractErrorDetails } from './shared/error-body.js';
export { ANTHROPIC_ERROR_RULES } from './adapters/anthropic-messages/anthropic-errors.js';
export { OPENAI_CHAT_ERROR_RULES } from './adapters/openai-chat/openai-chat-errors.js';
export { OPENAI_RESPONSES_ERROR_RULES } from './adapters/openai-responses/openai-responses-errors.js';
export { GEMINI_ERROR_RULES } from './adapters/gemini/gemini-errors.js';
export { BEDROCK_ERROR_RULES } from './adapters/bedrock-converse/bedrock-errors.js';
export { COHERE_ERROR_RULES } from './adapters/cohere-v2/cohere-errors.js';
export { OLLAMA_ERROR_RULES } from './adapters/ollama/ollama-errors.js';

// ── Messages and tools on the wire ────────────────────────────────────────────────────────────────
export { type SystemPromptSegment, systemPromptSegments, systemPromptText } from './shared/system-prompt.js';
export {
  isTranscriptBlock,
  type ProviderUserContentBlock,
  type ToProviderUserContentOptions,
  toProviderUserContent,
  transcriptBlockToText,
} from './shared/transcript-blocks.js';
export { mergeProviderMetadata } from './shared/provider-metadata.js';
export { ANTHROPIC_TOOL_CALL_ID_RULES, toVendorToolCallId } from './shared/tool-call-ids.js';
export {
  checkToolInputValue,
  createToolInputBuffer,
  DEFAULT_TOOL_INPUT_LIMITS,
  parseToolInput,
  type ToolInputBuffer,
  type ToolInputParseResult,
} from './shared/tool-input.js';
export { toGeminiSchema } from './adapters/gemini/gemini-schema.js';

// ── The built-in adapters' defaults ───────────────────────────────────────────────────────────────
export { BUILTIN_ADAPTER_FACTORIES } from './providers/adapter-factories.js';
export {
  ANTHROPIC_DEFAULT_BASE_URL,
  ANTHROPIC_DEFAULT_VERSION,
} from './adapters/anthropic-messages/anthropic-provider.js';
export {
  DEFAULT_OPENAI_CHAT_COMPAT,
  MISTRAL_TOOL_CALL_ID_RULES,
  OPENAI_CHAT_DEFAULT_API_KEY_ENV_VARS,
  OPENAI_CHAT_DEFAULT_BASE_URL,
} from './adapters/openai-chat/openai-chat-settings.js';
export {
  GEMINI_API_KEY_ENV_VARS,
  GEMINI_DEFAULT_BASE_URL,
  VERTEX_ACCESS_TOKEN_ENV_VARS,
  vertexBaseUrl,
} from './adapters/gemini/gemini-provider.js';
export { OLLAMA_API_KEY_ENV_VARS, OLLAMA_DEFAULT_BASE_URL } from './adapters/ollama/ollama-provider.js';
export { GITHUB_COPILOT_DEFAULT_BASE_URL } from './providers/token-files/github-copilot-provider.js';
export {
  CODEX_DEFAULT_BASE_URL,
  CODEX_DEFAULT_TOKEN_URL,
  CODEX_MODELS,
  CODEX_OAUTH_CLIENT_ID,
} from './providers/token-files/openai-codex-provider.js';
export { PROVIDER_CHAIN_ADAPTER } from './providers/provider-chain.js';
export { matchesModel } from './providers/model-pattern.js';

// ── Building and refreshing the model catalogue ───────────────────────────────────────────────────
export { type BuildCatalogueOptions, buildCatalogue, MODELS_DEV_API_URL } from './catalogue/build-catalogue.js';
export { parseCatalogue } from './catalogue/parse-catalogue.js';
export { serializeCatalogue } from './catalogue/serialize-catalogue.js';
export { fetchModelsDevJson } from './catalogue/refresh-catalogue.js';
export { CATALOGUE_SOURCE_PROVIDERS } from './catalogue/catalogue-providers.js';
export { type ProviderCatalogue, SHIPPED_PROVIDER_CATALOGUE } from './providers/catalogue-models.js';
