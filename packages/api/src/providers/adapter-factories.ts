import { createAnthropicMessagesProvider } from '../adapters/anthropic-messages/anthropic-provider.js';
import { createBedrockConverseProvider } from '../adapters/bedrock-converse/bedrock-provider.js';
import { createCohereProvider } from '../adapters/cohere-v2/cohere-provider.js';
import { createGeminiProvider } from '../adapters/gemini/gemini-provider.js';
import { createOllamaProvider } from '../adapters/ollama/ollama-provider.js';
import { createOpenAIChatProvider } from '../adapters/openai-chat/openai-chat-provider.js';
import { createOpenAIResponsesProvider } from '../adapters/openai-responses/openai-responses-provider.js';
import type { AdapterSettings } from '../shared/adapter-settings.js';
import type { LlmProvider } from '../spec/provider.js';
import { createProviderChain } from './provider-chain.js';
import type { BuiltinAdapterId, BuiltinAdapterSettings } from './provider-entry.js';
import { createGitHubCopilotProvider } from './token-files/github-copilot-provider.js';
import { createOpenAICodexProvider } from './token-files/openai-codex-provider.js';

/**
 * Makes an {@link LlmProvider} from settings: what a protocol adapter exports. A third-party adapter
 * registered with `registry.registerAdapter(id, factory)` receives the common {@link AdapterSettings}
 * the registry fills from the row (provider id and name, base URL, key or key variables, headers,
 * environment) merged with the row's own `settings`.
 */
export type ProviderAdapterFactory<Settings extends object = Record<string, unknown>> = (
  settings: AdapterSettings & Settings,
) => LlmProvider;

/** The factory of each built-in adapter, by adapter id. */
export const BUILTIN_ADAPTER_FACTORIES: {
  readonly [Adapter in BuiltinAdapterId]: (settings: BuiltinAdapterSettings[Adapter]) => LlmProvider;
} = {
  'anthropic-messages': createAnthropicMessagesProvider,
  'openai-chat': createOpenAIChatProvider,
  'openai-responses': createOpenAIResponsesProvider,
  gemini: createGeminiProvider,
  'bedrock-converse': createBedrockConverseProvider,
  'cohere-v2': createCohereProvider,
  ollama: createOllamaProvider,
  'github-copilot': createGitHubCopilotProvider,
  'openai-codex': createOpenAICodexProvider,
  // A registry passes its own resolver (provider ids of the upstreams); standalone it takes providers.
  'provider-chain': createProviderChain,
};

/** Whether `id` names a built-in adapter. */
export function isBuiltinAdapterId(id: string): id is BuiltinAdapterId {
  return Object.hasOwn(BUILTIN_ADAPTER_FACTORIES, id);
}
