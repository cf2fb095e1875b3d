// biome-ignore-all assist/source/organizeImports: the entry is grouped by purpose under headings, the main functions first
// The public surface of @boxagnts/api: what an app calls. Explicit named exports only; anything not
// listed is internal. Helpers for people who write their own protocol adapter (HTTP and SSE plumbing,
// retries, error tables, tool-input parsing) are in `@boxagnts/api/adapter-kit`.

// ── Providers: get one by id, or resolve `provider/model` ────────────────────────────────────────
export { createProvider, getDefaultProviderRegistry, getProvider, resolveModel } from './providers/default-registry.js';
export {
  type CreateProviderOptions,
  createProviderRegistry,
  type ProviderPlugin,
  type ProviderRegistry,
  type ProviderRegistryOptions,
  type ResolvedModel,
} from './providers/registry.js';
export type { ProviderStatus } from './providers/provider-status.js';
export { isProviderConfigurationError, ProviderConfigurationError } from './providers/provider-configuration-error.js';

// ── Provider chains: fall over between upstreams before the answer starts ─────────────────────────
export {
  CHAIN_FINAL_REASONS,
  createProviderChain,
  type ProviderChainSettings,
  type ProviderChainUpstream,
} from './providers/provider-chain.js';

// ── The provider table: rows as data, aliases, plugins ────────────────────────────────────────────
export { BUILTIN_PROVIDERS } from './providers/builtin-providers.js';
export { BUILTIN_PROVIDER_ALIASES, type ProviderAlias } from './providers/provider-aliases.js';
export type { ProviderAdapterFactory } from './providers/adapter-factories.js';
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

// ── Protocol adapters: one factory each, returning an LlmProvider ─────────────────────────────────
export {
  type AnthropicMessagesSettings,
  createAnthropicMessagesProvider,
} from './adapters/anthropic-messages/anthropic-provider.js';
export type { AnthropicServerBlock } from './adapters/anthropic-messages/anthropic-messages.js';
export { createOpenAIChatProvider } from './adapters/openai-chat/openai-chat-provider.js';
export type {
  OpenAIChatCompat,
  OpenAIChatReasoningField,
  OpenAIChatSettings,
  OpenAIChatThinkingStyle,
  OpenAIChatToolCallIdRules,
} from './adapters/openai-chat/openai-chat-settings.js';
export {
  createOpenAIResponsesProvider,
  type OpenAIResponsesSettings,
} from './adapters/openai-responses/openai-responses-provider.js';
export type { OpenAIReasoningSummary } from './adapters/openai-responses/openai-responses-request.js';
export type { OpenAIResponsesBlockMetadata } from './adapters/openai-responses/openai-responses-metadata.js';
export {
  createGeminiProvider,
  type GeminiSettings,
  type GeminiVertexSettings,
} from './adapters/gemini/gemini-provider.js';
export type { GeminiToolSchemaMode } from './adapters/gemini/gemini-tools.js';
export {
  type BedrockConverseSettings,
  createBedrockConverseProvider,
} from './adapters/bedrock-converse/bedrock-provider.js';
export type { AwsCredentials, AwsCredentialsProvider } from './adapters/bedrock-converse/bedrock-auth.js';
export { type CohereSettings, createCohereProvider } from './adapters/cohere-v2/cohere-provider.js';
export { createOllamaProvider, type OllamaSettings } from './adapters/ollama/ollama-provider.js';
export {
  createGitHubCopilotProvider,
  type GitHubCopilotSettings,
} from './providers/token-files/github-copilot-provider.js';
export { createOpenAICodexProvider, type OpenAICodexSettings } from './providers/token-files/openai-codex-provider.js';
export type { AdapterSettings } from './shared/adapter-settings.js';

// ── Messages, requests and responses ──────────────────────────────────────────────────────────────
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
export type {
  LlmRequest,
  SystemPrompt,
  SystemPromptPart,
  ThinkingConfig,
  ThinkingEffort,
} from './spec/request.js';
export type { AssistantResponse } from './spec/response.js';
export type { LlmCallOptions, LlmProvider, ModelInfo } from './spec/provider.js';
export type { ToolChoice, ToolDefinition } from './spec/tool-definition.js';
export type { ProviderMetadata, ProviderOptions } from './spec/provider-metadata.js';
export type { JsonObject, JsonSchema, JsonValue } from './spec/json-value.js';

// ── Stream events, and a message assembled from them ──────────────────────────────────────────────
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
export { assembleMessage, MessageAssembler } from './shared/message-assembler.js';

// ── Errors: one closed set of reasons, cross-realm guards ─────────────────────────────────────────
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
export {
  isSplicedStreamError,
  isStreamEventTooLargeError,
  SplicedStreamError,
  type SplicedStreamKind,
  StreamEventTooLargeError,
} from './spec/stream-protocol-errors.js';
export { type ToLlmErrorContext, toLlmError } from './shared/to-llm-error.js';
export { redactSecrets, redactUrl } from './shared/redact-secrets.js';

// ── Usage, cost and the model catalogue ───────────────────────────────────────────────────────────
export type { FinishReason, UnifiedFinishReason, Usage } from './spec/usage.js';
export { addUsage, createUsage, type UsageInit } from './shared/usage.js';
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
export {
  type Capability,
  type ModelCapabilities,
  type ModelCapabilitiesOptions,
  modelCapabilities,
} from './catalogue/capabilities.js';
export { getActiveCatalogue, getShippedCatalogue, setActiveCatalogue } from './catalogue/catalogue-store.js';
export { type FetchModelsDevOptions, fetchModelsDevCatalogue } from './catalogue/refresh-catalogue.js';
export { CATALOGUE_PROVIDER_MAP } from './catalogue/catalogue-providers.js';
export type {
  Catalogue,
  CatalogueModality,
  CatalogueModel,
  CatalogueModelStatus,
  CataloguePrice,
  CataloguePriceTier,
  CatalogueProvider,
} from './catalogue/catalogue-types.js';

// ── Moving a conversation to another provider ─────────────────────────────────────────────────────
export {
  type HistoryEndpoint,
  IMAGE_PLACEHOLDER,
  PORTABLE_TOOL_CALL_ID_RULES,
  type TransferHistoryOptions,
  type TransferredHistory,
  transferHistory,
} from './providers/transfer-history.js';
export type { ToolCallIdRules } from './shared/tool-call-ids.js';

// ── Transport: the shared connection pool, retry and stall settings ───────────────────────────────
export {
  configureSharedHttpAgent,
  createHttpAgent,
  DEFAULT_HTTP_AGENT_OPTIONS,
  getSharedHttpAgent,
  type HttpAgentOptions,
} from './shared/http-agent.js';
export { DEFAULT_RETRY_OPTIONS, type RetryEvent, type RetryOptions } from './shared/retry-policy.js';
export { DEFAULT_STALL_OPTIONS, type StallOptions } from './shared/stall-timeouts.js';
export { DEFAULT_MAX_STREAM_EVENT_LENGTH } from './shared/stream-event-limit.js';
export type { ToolInputLimits } from './shared/tool-input.js';

// ── The outbound-host allowlist: one format for the config, web_fetch, the shell and components ──
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
