import type { JsonObject } from './json-value.js';
import type { LlmError } from './llm-error.js';
import type { ToolInputError } from './message.js';
import type { ProviderMetadata } from './provider-metadata.js';
import type { FinishReason, Usage } from './usage.js';

/** The stream opened; id and model as the vendor reported them. */
export interface MessageStartEvent {
  type: 'message-start';
  id?: string;
  model?: string;
  providerMetadata?: ProviderMetadata;
}

/** A text block begins; `blockId` ties its deltas and end together (unique within one message). */
export interface TextStartEvent {
  type: 'text-start';
  blockId: string;
  providerMetadata?: ProviderMetadata;
}

/** More text for an open text block. */
export interface TextDeltaEvent {
  type: 'text-delta';
  blockId: string;
  delta: string;
}

/** A text block is complete; metadata here merges into the block's. */
export interface TextEndEvent {
  type: 'text-end';
  blockId: string;
  providerMetadata?: ProviderMetadata;
}

/** A thinking block begins. */
export interface ThinkingStartEvent {
  type: 'thinking-start';
  blockId: string;
  providerMetadata?: ProviderMetadata;
}

/** More reasoning text for an open thinking block. */
export interface ThinkingDeltaEvent {
  type: 'thinking-delta';
  blockId: string;
  delta: string;
}

/** Part of a thinking block's signature; pieces are concatenated in order. */
export interface ThinkingSignatureDeltaEvent {
  type: 'thinking-signature-delta';
  blockId: string;
  delta: string;
}

/** A thinking block is complete; a `signature` here replaces any streamed signature pieces. */
export interface ThinkingEndEvent {
  type: 'thinking-end';
  blockId: string;
  signature?: string;
  providerMetadata?: ProviderMetadata;
}

/** A complete redacted (encrypted) thinking block; it has no deltas. */
export interface RedactedThinkingEvent {
  type: 'redacted-thinking';
  blockId: string;
  data: string;
  providerMetadata?: ProviderMetadata;
}

/** The model starts a tool call. */
export interface ToolCallStartEvent {
  type: 'tool-call-start';
  blockId: string;
  toolCallId: string;
  toolName: string;
  providerMetadata?: ProviderMetadata;
}

/** More of the tool call's JSON argument text. */
export interface ToolCallInputDeltaEvent {
  type: 'tool-call-input-delta';
  blockId: string;
  delta: string;
}

/**
 * A tool call is complete: `input` holds the parsed arguments, or `{}` with `inputError` set when
 * they were not a usable JSON object (the loop answers with an error result instead of running it).
 */
export interface ToolCallEndEvent {
  type: 'tool-call-end';
  blockId: string;
  toolCallId: string;
  toolName: string;
  input: JsonObject;
  inputError?: ToolInputError;
  providerMetadata?: ProviderMetadata;
}

/** Token counts so far; the last value seen wins. */
export interface UsageEvent {
  type: 'usage';
  usage: Usage;
  /**
   * The vendor's usage object as received (the README says which object per adapter), for numbers
   * the normalised `usage` does not carry; absent when the vendor sent none.
   */
  raw?: unknown;
}

/** The message is complete (terminal). */
export interface MessageEndEvent {
  type: 'message-end';
  finishReason: FinishReason;
  usage: Usage;
  /** The vendor's last usage object as received (see {@link UsageEvent.raw}); absent when none came. */
  raw?: unknown;
  providerMetadata?: ProviderMetadata;
}

/** The stream failed (terminal); nothing follows. */
export interface ErrorEvent {
  type: 'error';
  error: LlmError;
}

/**
 * One event of a streamed model response. Blocks are scoped by `blockId`: a `*-start`, its deltas,
 * then its `*-end`; blocks appear in the final message in the order of their start events. Every
 * stream ends with exactly one terminal event, `message-end` or `error`, and never throws.
 */
export type StreamEvent =
  | MessageStartEvent
  | TextStartEvent
  | TextDeltaEvent
  | TextEndEvent
  | ThinkingStartEvent
  | ThinkingDeltaEvent
  | ThinkingSignatureDeltaEvent
  | ThinkingEndEvent
  | RedactedThinkingEvent
  | ToolCallStartEvent
  | ToolCallInputDeltaEvent
  | ToolCallEndEvent
  | UsageEvent
  | MessageEndEvent
  | ErrorEvent;
