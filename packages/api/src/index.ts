// The public surface of @boxagnts/api. Explicit named exports only: anything not listed is internal.

export { ANTHROPIC_ERROR_RULES } from './adapters/anthropic-messages/anthropic-errors.js';
export type { AnthropicServerBlock } from './adapters/anthropic-messages/anthropic-messages.js';
// Protocol adapters: one factory each, returning an LlmProvider.
export {
  ANTHROPIC_DEFAULT_BASE_URL,
  ANTHROPIC_DEFAULT_VERSION,
  type AnthropicMessagesSettings,
  createAnthropicMessagesProvider,
} from './adapters/anthropic-messages/anthropic-provider.js';
export type { AwsCredentials, AwsCredentialsProvider } from './adapters/bedrock-converse/bedrock-auth.js';
export { BEDROCK_ERROR_RULES } from './adapters/bedrock-converse/bedrock-errors.js';
export {
  type BedrockConverseSettings,
  createBedrockConverseProvider,
} from './adapters/bedrock-converse/bedrock-provider.js';
export { COHERE_ERROR_RULES } from './adapters/cohere-v2/cohere-errors.js';
export { type CohereSettings, createCohereProvider } from './adapters/cohere-v2/cohere-provider.js';
export { GEMINI_ERROR_RULES } from './adapters/gemini/gemini-errors.js';
export {
  createGeminiProvider,
  GEMINI_API_KEY_ENV_VARS,
  GEMINI_DEFAULT_BASE_URL,
  type GeminiSettings,
  type GeminiVertexSettings,
  VERTEX_ACCESS_TOKEN_ENV_VARS,
  vertexBaseUrl,
} from './adapters/gemini/gemini-provider.js';
export { toGeminiSchema } from './adapters/gemini/gemini-schema.js';
export type { GeminiToolSchemaMode } from './adapters/gemini/gemini-tools.js';
export { OLLAMA_ERROR_RULES } from './adapters/ollama/ollama-errors.js';
export {
  createOllamaProvider,
  OLLAMA_API_KEY_ENV_VARS,
  OLLAMA_DEFAULT_BASE_URL,
  type OllamaSettings,
} from './adapters/ollama/ollama-provider.js';
export { OPENAI_CHAT_ERROR_RULES } from './adapters/openai-chat/openai-chat-errors.js';
export { createOpenAIChatProvider } from './adapters/openai-chat/openai-chat-provider.js';
export {
  DEFAULT_OPENAI_CHAT_COMPAT,
  MISTRAL_TOOL_CALL_ID_RULES,
  OPENAI_CHAT_DEFAULT_API_KEY_ENV_VARS,
  OPENAI_CHAT_DEFAULT_BASE_URL,
  type OpenAIChatCompat,
  type OpenAIChatReasoningField,
  type OpenAIChatSettings,
  type OpenAIChatThinkingStyle,
  type OpenAIChatToolCallIdRules,
} from './adapters/openai-chat/openai-chat-settings.js';
export { OPENAI_RESPONSES_ERROR_RULES } from './adapters/openai-responses/openai-responses-errors.js';
export type { OpenAIResponsesBlockMetadata } from './adapters/openai-responses/openai-responses-metadata.js';
export {
  createOpenAIResponsesProvider,
  type OpenAIResponsesSettings,
} from './adapters/openai-responses/openai-responses-provider.js';
export type { OpenAIReasoningSummary } from './adapters/openai-responses/openai-responses-request.js';
// Model catalogue and cost.
export {
  type BuildCatalogueOptions,
  buildCatalogue,
  MODELS_DEV_API_URL,
} from './catalogue/build-catalogue.js';
export {
  type Capability,
  type ModelCapabilities,
  type ModelCapabilitiesOptions,
  modelCapabilities,
} from './catalogue/capabilities.js';
export { CATALOGUE_PROVIDER_MAP, CATALOGUE_SOURCE_PROVIDERS } from './catalogue/catalogue-providers.js';
export { getActiveCatalogue, getShippedCatalogue, setActiveCatalogue } from './catalogue/catalogue-store.js';
export type {
  Catalogue,
  CatalogueModality,
  CatalogueModel,
  CatalogueModelStatus,
  CataloguePrice,
  CataloguePriceTier,
  CatalogueProvider,
} from './catalogue/catalogue-types.js';
export {
  type ComputeCostOptions,
  type CostBreakdown,
  type CostResult,
  computeCost,
  type KnownCost,
  type UnknownCost,
  type UnknownCostReason,
} from './catalogue/compute-cost.js';
export { type FindModelOptions, findModel, listCatalogueModels, toModelInfo } from './catalogue/lookup.js';
export { parseCatalogue } from './catalogue/parse-catalogue.js';
export {
  type FetchModelsDevOptions,
  fetchModelsDevCatalogue,
  fetchModelsDevJson,
} from './catalogue/refresh-catalogue.js';
export { serializeCatalogue } from './catalogue/serialize-catalogue.js';
// The outbound-host allowlist: one format for the workspace config, web_fetch, the shell and components.
export {
  ALLOWED_HOSTS_SYNTAX_URL,
  type AllowedHost,
  AllowedHostError,
  type AllowedHostPattern,
  type AllowedPortPattern,
  defaultPort,
  isUrlAllowed,
  normaliseAllowedHost,
  parseAllowedHost,
  parseAllowedHosts,
} from './network/allowed-hosts.js';
export {
  formatIpv4,
  type IpAddress,
  type IpRange,
  ipRange as parseIpRangeOrThrow,
  parseIp as parseIpAddress,
  parseIpRange,
  rangeContains as ipRangeContains,
} from './network/ip-address.js';
// Providers as data, the registry and plugins.
export { BUILTIN_ADAPTER_FACTORIES, type ProviderAdapterFactory } from './providers/adapter-factories.js';
export { BUILTIN_PROVIDERS } from './providers/builtin-providers.js';
export { type ProviderCatalogue, SHIPPED_PROVIDER_CATALOGUE } from './providers/catalogue-models.js';
export { createProvider, getDefaultProviderRegistry, getProvider, resolveModel } from './providers/default-registry.js';
export { matchesModel } from './providers/model-pattern.js';
export { isProviderConfigurationError, ProviderConfigurationError } from './providers/provider-configuration-error.js';
export type {
  AdapterProviderEntry,
  BuiltinAdapterId,
  BuiltinAdapterSettings,
  BuiltinProviderEntry,
  ModelOverride,
  ModelPattern,
  ProviderAuthStyle,
  ProviderConfigureContext,
  ProviderEntry,
  ProviderEntryBase,
  ProviderParameter,
  ThirdPartyAdapterId,
  ThirdPartyProviderEntry,
} from './providers/provider-entry.js';
export type { ProviderStatus } from './providers/provider-status.js';
export {
  type CreateProviderOptions,
  createProviderRegistry,
  type ProviderPlugin,
  type ProviderRegistry,
  type ProviderRegistryOptions,
  type ResolvedModel,
} from './providers/registry.js';
export {
  type HistoryEndpoint,
  IMAGE_PLACEHOLDER,
  PORTABLE_TOOL_CALL_ID_RULES,
  type TransferHistoryOptions,
  type TransferredHistory,
  transferHistory,
} from './providers/transfer-history.js';
export { abortableSleep, type LinkedAbortController, linkAbortController } from './shared/abort.js';
export type { AdapterSettings } from './shared/adapter-settings.js';
export { type AsyncQueue, type AsyncQueueOptions, createAsyncQueue } from './shared/async-queue.js';
export {
  type ClassifyHttpErrorInput,
  classifyHttpError,
  GENERIC_HTTP_ERROR_RULES,
  type HttpErrorRule,
  reasonForStatus,
} from './shared/classify-http-error.js';
export { type ContextOverflowTokens, parseContextOverflowTokens } from './shared/context-overflow-tokens.js';
export { type ErrorBodyDetails, extractErrorDetails } from './shared/error-body.js';
export { type HeaderSource, readHeader } from './shared/headers.js';
export {
  configureSharedHttpAgent,
  createHttpAgent,
  DEFAULT_HTTP_AGENT_OPTIONS,
  getSharedHttpAgent,
  type HttpAgentOptions,
} from './shared/http-agent.js';
export { assembleMessage, MessageAssembler } from './shared/message-assembler.js';
export {
  createNdjsonParser,
  type NdjsonParser,
  type NdjsonParserCallbacks,
} from './shared/ndjson-parser.js';
export { createProviderFetch, type FetchFunction, type ProviderFetchOptions } from './shared/provider-fetch.js';
export { mergeProviderMetadata } from './shared/provider-metadata.js';
export {
  type ByteStream,
  type InvalidNdjsonLine,
  type ReadServerSentEventsOptions,
  readNdjson,
  readNdjsonBatches,
  readServerSentEventBatches,
  readServerSentEvents,
} from './shared/read-event-stream.js';
export { redactSecrets, redactUrl } from './shared/redact-secrets.js';
export { type ResolveApiKeyOptions, resolveApiKey } from './shared/resolve-api-key.js';
export { responseToStreamEvents } from './shared/response-to-stream-events.js';
export { parseDuration, parseRetryAfterHeaders, parseRetryInfoDelay } from './shared/retry-after.js';
export {
  DEFAULT_RETRY_OPTIONS,
  decideRetry,
  type RetryDecision,
  type RetryEvent,
  type RetryOptions,
  type WithRetriesOptions,
  withRetries,
} from './shared/retry-policy.js';
export { type SendRequestOptions, sendRequest } from './shared/send-request.js';
export {
  type SendStreamRequestOptions,
  type StreamResponse,
  sendStreamRequest,
} from './shared/send-stream-request.js';
export {
  createSseParser,
  type SseEvent,
  type SseParser,
  type SseParserCallbacks,
} from './shared/sse-parser.js';
export {
  DEFAULT_STALL_OPTIONS,
  type StallOptions,
  type WithStallTimeoutsOptions,
  withStallTimeouts,
} from './shared/stall-timeouts.js';
export {
  DEFAULT_MAX_STREAM_EVENT_LENGTH,
  resolveMaxEventLength,
  type StreamEventLimitOptions,
} from './shared/stream-event-limit.js';
export {
  type OpenStream,
  type StreamEventBatch,
  type StreamWithRetriesOptions,
  streamWithRetries,
} from './shared/stream-with-retries.js';
export { type SystemPromptSegment, systemPromptSegments, systemPromptText } from './shared/system-prompt.js';
export { type ToLlmErrorContext, toLlmError } from './shared/to-llm-error.js';
export { ANTHROPIC_TOOL_CALL_ID_RULES, type ToolCallIdRules, toVendorToolCallId } from './shared/tool-call-ids.js';
export {
  checkToolInputValue,
  createToolInputBuffer,
  DEFAULT_TOOL_INPUT_LIMITS,
  parseToolInput,
  type ToolInputBuffer,
  type ToolInputLimits,
  type ToolInputParseResult,
} from './shared/tool-input.js';
export {
  isTranscriptBlock,
  type ProviderUserContentBlock,
  type ToProviderUserContentOptions,
  toProviderUserContent,
  transcriptBlockToText,
} from './shared/transcript-blocks.js';
export { addUsage, createUsage, type UsageInit } from './shared/usage.js';
export { type CreateLlmErrorOptions, createLlmError } from './spec/create-llm-error.js';
export type { JsonObject, JsonSchema, JsonValue } from './spec/json-value.js';
export {
  isLlmError,
  isRetryableReason,
  LLM_ERROR_REASONS,
  LlmError,
  type LlmErrorOptions,
  type LlmErrorReason,
  type LlmErrorSubclassOptions,
} from './spec/llm-error.js';
export {
  AbortedError,
  AuthenticationError,
  ContentFilterError,
  ContextOverflowError,
  isAbortedError,
  isAuthenticationError,
  isContentFilterError,
  isContextOverflowError,
  isMissingApiKeyError,
  isNetworkError,
  isOverloadedError,
  isQuotaExceededError,
  isRateLimitError,
  isRedirectError,
  isRequestTimeoutError,
  isStreamStallError,
  MissingApiKeyError,
  NetworkError,
  OverloadedError,
  QuotaExceededError,
  RateLimitError,
  RedirectError,
  RequestTimeoutError,
  StreamStallError,
  type StreamStallKind,
} from './spec/llm-error-classes.js';
export type {
  AssistantContentBlock,
  AssistantMessage,
  CollapsedReadSearchBlock,
  ContentBlock,
  ContentBlockBase,
  DocumentBlock,
  ImageBlock,
  MediaSource,
  Message,
  MessageRole,
  RedactedThinkingBlock,
  SystemApiErrorBlock,
  SystemMessage,
  TaskAssignmentBlock,
  TextBlock,
  ThinkingBlock,
  ToolInputError,
  ToolResultBlock,
  ToolUseBlock,
  TranscriptBlock,
  UserCommandBlock,
  UserContentBlock,
  UserLocalCommandOutputBlock,
  UserMemoryInputBlock,
  UserMessage,
} from './spec/message.js';
export type { LlmCallOptions, LlmProvider, ModelInfo } from './spec/provider.js';
export type { ProviderMetadata, ProviderOptions } from './spec/provider-metadata.js';
export type {
  LlmRequest,
  SystemPrompt,
  SystemPromptPart,
  ThinkingConfig,
  ThinkingEffort,
} from './spec/request.js';
export type { AssistantResponse } from './spec/response.js';
export type {
  ErrorEvent,
  MessageEndEvent,
  MessageStartEvent,
  RedactedThinkingEvent,
  StreamEvent,
  TextDeltaEvent,
  TextEndEvent,
  TextStartEvent,
  ThinkingDeltaEvent,
  ThinkingEndEvent,
  ThinkingSignatureDeltaEvent,
  ThinkingStartEvent,
  ToolCallEndEvent,
  ToolCallInputDeltaEvent,
  ToolCallStartEvent,
  UsageEvent,
} from './spec/stream-event.js';
export {
  isSplicedStreamError,
  isStreamEventTooLargeError,
  SplicedStreamError,
  type SplicedStreamKind,
  StreamEventTooLargeError,
} from './spec/stream-protocol-errors.js';
export type { ToolChoice, ToolDefinition } from './spec/tool-definition.js';
export type { FinishReason, UnifiedFinishReason, Usage } from './spec/usage.js';
