import type { LlmRequest } from './request.js';
import type { AssistantResponse } from './response.js';
import type { StreamEvent } from './stream-event.js';

/** Per-call options: cancellation and extra HTTP headers. */
export interface LlmCallOptions {
  signal?: AbortSignal;
  /** Extra headers for this call only (e.g. a beta flag); never put keys here, use the provider's key setting. */
  headers?: Record<string, string>;
}

/** A model a provider offers, as its listing endpoint describes it. */
export interface ModelInfo {
  id: string;
  name?: string;
  contextWindow?: number;
  maxOutputTokens?: number;
  /** ISO 8601 creation date when the vendor reports one. */
  createdAt?: string;
}

/**
 * One interface for every vendor: the agent loop talks only to this. `streamMessage` never throws
 * once iterated (failures arrive as a terminal `error` event); `createMessage` rejects with an
 * `LlmError`. Both produce the same message for the same vendor output.
 */
export interface LlmProvider {
  /** Stable id (`anthropic`, `openrouter`, ...), used in errors and provider metadata. */
  readonly id: string;
  /** Display name. */
  readonly name: string;
  /**
   * The wire protocol it speaks (`anthropic-messages`, `openai-chat`, `openai-responses`, `gemini`,
   * `bedrock-converse`, `cohere-v2`, `ollama`, or a third party's adapter id): what
   * `transferHistory` needs to move a conversation to or from this provider.
   */
  readonly adapter?: string;
  createMessage(request: LlmRequest, options?: LlmCallOptions): Promise<AssistantResponse>;
  streamMessage(request: LlmRequest, options?: LlmCallOptions): AsyncIterable<StreamEvent>;
  listModels(options?: LlmCallOptions): Promise<ModelInfo[]>;
}
