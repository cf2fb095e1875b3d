import type { AssistantMessage } from './message.js';
import type { FinishReason, Usage } from './usage.js';

/** A complete model answer: the message exactly as received, why it ended, and what it cost. */
export interface AssistantResponse {
  /** The vendor's message/response id, when it gives one. */
  id?: string;
  /** The model that actually answered (may differ from the requested alias). */
  model?: string;
  /** The content blocks; message-level provider metadata (from message start/end events) rides on it. */
  message: AssistantMessage;
  finishReason: FinishReason;
  usage: Usage;
}
