import type { LlmProvider } from '@boxagnts/api';

const ADAPTERS: Readonly<Record<string, string>> = {
  anthropic: 'anthropic-messages',
  openai: 'openai-responses',
  google: 'gemini',
  gemini: 'gemini',
  'google-vertex': 'gemini',
  'amazon-bedrock': 'bedrock-converse',
  bedrock: 'bedrock-converse',
  cohere: 'cohere-v2',
  ollama: 'ollama',
};

/**
 * The protocol adapter a provider speaks, for moving a history between providers: the provider's
 * own `adapter` field when it has one, the built-in vendors by id, else OpenAI Chat Completions
 * (what most other vendors speak).
 */
export function adapterForProvider(provider: LlmProvider): string {
  const declared = (provider as LlmProvider & { adapter?: unknown }).adapter;
  if (typeof declared === 'string') return declared;
  return ADAPTERS[provider.id] ?? 'openai-chat';
}
