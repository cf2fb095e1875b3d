import type { AssistantMessage } from './message.ts';
import type { ProviderMetadata } from './provider-metadata.ts';
import type { FinishReason, Usage } from './usage.ts';

/** A complete model answer: the message exactly as received, why it ended, and what it cost. */
export interface AssistantResponse {
  /** The vendor's message/response id, when it gives one. */
  id?: string;
  /** The model that actually answered (may differ from the requested alias). */
  model?: string;
  message: AssistantMessage;
  finishReason: FinishReason;
  usage: Usage;
  providerMetadata?: ProviderMetadata;
}
