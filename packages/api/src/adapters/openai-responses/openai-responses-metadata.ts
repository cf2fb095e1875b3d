import type { ContentBlockBase } from '../../spec/message.js';
import type { ProviderMetadata } from '../../spec/provider-metadata.js';

/** The provider-metadata key this adapter writes and reads back (its protocol id). */
export const OPENAI_RESPONSES_METADATA_KEY = 'openai-responses';

/**
 * What this adapter stores on blocks to replay them on later turns, exactly as received:
 * - `itemId`: the output item the block came from (`rs_…` reasoning, `msg_…` message, `fc_…` /
 *   `ctc_…` tool call); blocks of one item are sent back as one item;
 * - `encryptedContent`: a reasoning item's `encrypted_content` (on the item's last thinking block;
 *   a reasoning item with no summary is a `redacted_thinking` block whose `data` holds it);
 * - `reasoningText`: the thinking block is a `reasoning_text` content part, not a summary part;
 * - `phase`: a message item's `phase` (`commentary` / `final_answer`), which newer models want back;
 * - `refusal`: the text block is a `refusal` part;
 * - `customToolCall`: the tool call is a `custom_tool_call` (free-text input in `input.input`).
 */
export interface OpenAIResponsesBlockMetadata {
  itemId?: string;
  encryptedContent?: string;
  reasoningText?: boolean;
  phase?: string;
  refusal?: boolean;
  customToolCall?: boolean;
}

/** This adapter's entry of a block's provider metadata, if it has one. */
export function readOpenAIResponsesMetadata(block: ContentBlockBase): Record<string, unknown> | undefined {
  return block.providerMetadata?.[OPENAI_RESPONSES_METADATA_KEY];
}

/**
 * `{providerMetadata}` holding `values` under this adapter's key (undefined fields left out), or
 * `{}` when nothing is left, ready to spread into a stream event.
 */
export function withOpenAIResponsesMetadata(values: OpenAIResponsesBlockMetadata): {
  providerMetadata?: ProviderMetadata;
} {
  const entry: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) entry[key] = value;
  return Object.keys(entry).length === 0 ? {} : { providerMetadata: { [OPENAI_RESPONSES_METADATA_KEY]: entry } };
}
