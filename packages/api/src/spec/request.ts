import type { Message } from './message.js';
import type { ProviderOptions } from './provider-metadata.js';
import type { ToolChoice, ToolDefinition } from './tool-definition.js';

/** One piece of a layered system prompt. */
export type SystemPromptPart =
  | { type: 'text'; text: string }
  /**
   * Everything before this marker is stable between calls; adapters whose vendor supports prompt
   * caching put a cache breakpoint on the last text part before it.
   */
  | { type: 'cache-boundary' };

/** A system prompt: one string, or parts with an optional cache boundary between stable and per-call text. */
export type SystemPrompt = string | readonly SystemPromptPart[];

/** How much the model may reason before answering. */
export type ThinkingEffort = 'low' | 'medium' | 'high';

/**
 * Extended reasoning: a token budget (Anthropic, Gemini 2.5), an effort level (OpenAI, Gemini 3),
 * or off. Adapters translate to whichever form their vendor accepts.
 */
export type ThinkingConfig =
  | { type: 'enabled'; budgetTokens: number }
  | { type: 'effort'; effort: ThinkingEffort }
  | { type: 'disabled' };

/** One model call, in the vendor-neutral form every adapter accepts. */
export interface LlmRequest {
  /** The vendor's model id. */
  model: string;
  system?: SystemPrompt;
  messages: Message[];
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
  thinking?: ThinkingConfig;
  /** Caller metadata some vendors accept (e.g. an end-user id for abuse monitoring). */
  metadata?: Record<string, string>;
  /** Vendor-specific fields, keyed by provider or protocol id; see {@link ProviderOptions}. */
  providerOptions?: ProviderOptions;
}
