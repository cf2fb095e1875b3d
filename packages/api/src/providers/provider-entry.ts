import type { AnthropicMessagesSettings } from '../adapters/anthropic-messages/anthropic-provider.js';
import type { BedrockConverseSettings } from '../adapters/bedrock-converse/bedrock-provider.js';
import type { CohereSettings } from '../adapters/cohere-v2/cohere-provider.js';
import type { GeminiSettings } from '../adapters/gemini/gemini-provider.js';
import type { OllamaSettings } from '../adapters/ollama/ollama-provider.js';
import type { OpenAIChatSettings } from '../adapters/openai-chat/openai-chat-settings.js';
import type { OpenAIResponsesSettings } from '../adapters/openai-responses/openai-responses-provider.js';
import type { ProviderChainSettings } from './provider-chain.js';
import type { GitHubCopilotSettings } from './token-files/github-copilot-provider.js';
import type { OpenAICodexSettings } from './token-files/openai-codex-provider.js';

/**
 * The settings type of each protocol adapter shipped with the package, by adapter id. A row's
 * `settings` and `modelOverrides` are checked against the type its `adapter` names.
 */
export interface BuiltinAdapterSettings {
  'anthropic-messages': AnthropicMessagesSettings;
  'openai-chat': OpenAIChatSettings;
  'openai-responses': OpenAIResponsesSettings;
  gemini: GeminiSettings;
  'bedrock-converse': BedrockConverseSettings;
  'cohere-v2': CohereSettings;
  ollama: OllamaSettings;
  /** GitHub Copilot: Chat Completions and Responses with a GitHub token (or BoxAgnts' `auth.json`). */
  'github-copilot': GitHubCopilotSettings;
  /** OpenAI Codex on a ChatGPT login read from BoxAgnts' `codex_tokens.json`, refreshed when expired. */
  'openai-codex': OpenAICodexSettings;
  /** A chain of other providers tried in order (see `createProviderChain`). */
  'provider-chain': ProviderChainSettings;
}

/** The id of a protocol adapter shipped with the package. */
export type BuiltinAdapterId = keyof BuiltinAdapterSettings;

/**
 * The id of an adapter a third party registers at run time (`registry.registerAdapter`). It must
 * hold a `:` (`acme:chat`, `@acme/llm:chat`) so it can never collide with a built-in adapter id,
 * present or future, and so the type checker can tell the two kinds of row apart.
 */
export type ThirdPartyAdapterId = `${string}:${string}`;

/**
 * How a provider sends its credentials. Informational for listings and docs (the adapter settings
 * decide what is actually sent): `bearer` (`Authorization: Bearer`), `x-api-key` (Anthropic),
 * `api-key` (Azure OpenAI), `x-goog-api-key` (Gemini API), `sigv4` (AWS request signing, or a
 * Bedrock API key as a bearer token), `none` (local servers).
 */
export type ProviderAuthStyle = 'bearer' | 'x-api-key' | 'api-key' | 'x-goog-api-key' | 'sigv4' | 'none';

/**
 * A value a provider needs besides its key, such as an Azure resource name or a Vertex project:
 * taken from `createProvider({parameters})` first, then the first non-blank variable of `envVars`,
 * then `default`, when the first request is made. `{name}` in the row's `baseURL` is replaced by it.
 */
export interface ProviderParameter {
  /** Environment variables that may hold the value, checked in order. */
  envVars: readonly string[];
  /** Used when neither the option nor a variable gives a value; without one the parameter is required. */
  default?: string;
  /** What the value is, shown in the error when it is missing. */
  description: string;
}

/**
 * Quirks of some models of a provider, applied on top of the row's `settings` when the request's
 * model matches: which max-tokens field, how thinking is switched on, whether reasoning is echoed,
 * cache markers, tool-call id limits, `stream_options` (for `openai-chat` all of these live in
 * `settings.compat`), and a default temperature.
 */
export interface ModelOverride<Settings> {
  /**
   * The model ids this applies to: an exact id, a pattern with `*` wildcards (`deepseek-reasoner*`),
   * a regular expression, or a list of these. A leading `vendor/` in the request's model is part of
   * the id (OpenRouter style ids match `anthropic/*`).
   */
  match: ModelPattern | readonly ModelPattern[];
  /** Adapter settings for these models; object-valued settings (`compat`, `headers`) are merged one level deep. */
  settings?: Partial<Settings>;
  /** Temperature sent when a request sets none (some vendors recommend one, e.g. Kimi K2: 0.6). */
  defaultTemperature?: number;
}

/** An exact model id, a `*` wildcard pattern, or a regular expression. */
export type ModelPattern = string | RegExp;

/** What every provider row holds, whatever its adapter. */
export interface ProviderEntryBase {
  /** Stable id, lower-case kebab (`deepseek`, `azure-openai`): the `provider` of `provider/model` strings. */
  id: string;
  /** Display name. */
  name: string;
  /**
   * The default base URL, in the form the adapter takes (see each adapter's `baseURL`). `{name}`
   * placeholders are filled from {@link parameters}; `{model}` makes one client per model (Azure
   * deployment URLs). Omitted: the adapter's default (or `requiresBaseURL`).
   */
  baseURL?: string;
  /**
   * Other endpoints of the same service by region (`{international: '…', china: '…'}`), chosen with
   * `createProvider({region})`. `baseURL` is the one used when no region is asked for; say which it
   * is in `notes`.
   */
  regionalBaseURLs?: Readonly<Record<string, string>>;
  /** No usable default: the user must pass `baseURL` (a self-hosted server). */
  requiresBaseURL?: boolean;
  /** Environment variables that may hold the key, checked in order (vendors and tools disagree on names). */
  apiKeyEnvVars: readonly string[];
  /**
   * Other sets of variables that together make the provider usable without a key from
   * `apiKeyEnvVars`, e.g. `[['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']]` for SigV4. Used for
   * the configured state only; the adapter reads them itself.
   */
  alternativeCredentialEnvVars?: readonly (readonly string[])[];
  /**
   * Files that may hold the credential instead of a variable (BoxAgnts' token files), relative to the
   * working directory; `{name}` placeholders are filled from {@link parameters}. A present file
   * counts as configured (`credentialSource: 'file'`); the adapter reads it when a request is made.
   */
  credentialFiles?: readonly string[];
  /** A key is sent when one is found, but none is needed (a local Ollama; a vLLM without `--api-key`). */
  apiKeyOptional?: boolean;
  /** How the key is sent; see {@link ProviderAuthStyle}. */
  authStyle: ProviderAuthStyle;
  /** Headers on every request (besides auth). */
  headers?: Readonly<Record<string, string>>;
  /** Values the provider needs besides its key (see {@link ProviderParameter}), by placeholder name. */
  parameters?: Readonly<Record<string, ProviderParameter>>;
  /** The vendor's API documentation. */
  docsURL: string;
  /** What a user should know: which endpoint is the default and why, regional notes, caveats. */
  notes?: string;
  /** The provider's id in the models.dev catalogue, for model and price lookups; omitted when it has none. */
  modelsDevId?: string;
  /** The model used for a bare `createProvider({provider})` without a model and in examples. */
  defaultModel?: string;
  /** Temperature sent when a request sets none and no model override gives one. */
  defaultTemperature?: number;
  /**
   * Where `listModels()` looks: `vendor` (its list endpoint, falling back to the catalogue when that
   * fails) or `catalogue` (no usable endpoint, e.g. Azure deployments). Default `vendor`.
   */
  modelListing?: 'vendor' | 'catalogue';
}

/** The values a row's `configure` hook receives when the first request of a client is made. */
export interface ProviderConfigureContext {
  /** The resolved {@link ProviderEntryBase.parameters}. */
  parameters: Readonly<Record<string, string>>;
  /** The model this client serves. */
  model: string;
}

/** A provider row served by one built-in adapter, with that adapter's settings type-checked. */
export type AdapterProviderEntry<Adapter extends string, Settings> = ProviderEntryBase & {
  /** The protocol adapter that speaks to this provider. */
  adapter: Adapter;
  /** Adapter settings applied to every model (auth style, query, `compat`, ...). */
  settings?: Partial<Settings>;
  /** Per-model quirks, applied in order on top of `settings`. */
  modelOverrides?: readonly ModelOverride<Settings>[];
  /**
   * Settings computed from the resolved parameters, for what a `{placeholder}` in `baseURL` cannot
   * express (Vertex's project and location). Keep it pure: it runs once per client.
   */
  configure?: (context: ProviderConfigureContext) => Partial<Settings>;
};

/** A row served by one of the built-in adapters; a union discriminated on `adapter`. */
export type BuiltinProviderEntry = {
  [Adapter in BuiltinAdapterId]: AdapterProviderEntry<Adapter, BuiltinAdapterSettings[Adapter]>;
}[BuiltinAdapterId];

/**
 * A row served by a third-party adapter registered at run time. Its settings are passed to the
 * adapter's factory as they are, after the common ones ({@link AdapterSettings}).
 */
export type ThirdPartyProviderEntry = AdapterProviderEntry<ThirdPartyAdapterId, Readonly<Record<string, unknown>>>;

/**
 * One provider as data: id, name, adapter, base URL (and regional ones), key variables, auth
 * style, headers, docs, notes, adapter settings and per-model quirks. A discriminated union on
 * `adapter`, so each row's settings are checked against its adapter's settings type.
 *
 * @example
 * export const deepseekProvider: ProviderEntry = {
 *   id: 'deepseek',
 *   name: 'DeepSeek',
 *   adapter: 'openai-chat',
 *   baseURL: 'https://api.deepseek.com',
 *   apiKeyEnvVars: ['DEEPSEEK_API_KEY'],
 *   authStyle: 'bearer',
 *   docsURL: 'https://api-docs.deepseek.com/',
 *   settings: { compat: { maxTokensField: 'max_tokens', echoReasoningContent: true } },
 * };
 */
export type ProviderEntry = BuiltinProviderEntry | ThirdPartyProviderEntry;
