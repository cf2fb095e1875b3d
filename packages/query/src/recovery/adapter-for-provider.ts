import type { LlmProvider } from '@boxagnts/api';

/**
 * The protocol adapter a provider speaks, for moving a history between providers: the provider's
 * own `adapter` (every adapter of @boxagnts/api and every registry provider sets it), else OpenAI
 * Chat Completions, what most other vendors speak.
 */
export function adapterForProvider(provider: LlmProvider): string {
  return provider.adapter ?? 'openai-chat';
}
