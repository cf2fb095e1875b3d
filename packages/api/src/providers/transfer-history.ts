import { toChatToolCallId } from '../adapters/openai-chat/openai-chat-tool-call-id.js';
import type { ToolCallIdRules } from '../shared/tool-call-ids.js';
import type {
  AssistantContentBlock,
  AssistantMessage,
  ContentBlockBase,
  DocumentBlock,
  ImageBlock,
  Message,
  TextBlock,
  ToolResultBlock,
  UserContentBlock,
} from '../spec/message.js';
import type { ProviderMetadata } from '../spec/provider-metadata.js';

/** Who produced a conversation, or who is about to receive it: the protocol adapter and the provider. */
export interface HistoryEndpoint {
  /** The protocol adapter id: `anthropic-messages`, `openai-chat`, `gemini`, ... or a third party's. */
  adapter: string;
  /** The provider id (`anthropic`, `amazon-bedrock`, `deepseek`): signatures are only valid where they were made. */
  providerId: string;
}

/** Options of {@link transferHistory}. */
export interface TransferHistoryOptions {
  /** The provider that produced the assistant messages (the one the loop is leaving). */
  from: HistoryEndpoint;
  /** The provider the conversation continues on. */
  to: HistoryEndpoint;
  /** Whether the target model reads images (see the catalogue's input modalities); default `true`. */
  vision?: boolean;
  /** Whether the target model reads PDF documents; default `true`. */
  documents?: boolean;
  /**
   * What the target accepts as a tool-call id; default {@link PORTABLE_TOOL_CALL_ID_RULES}, which
   * every built-in adapter's vendor accepts. Pass the target's own when stricter (Mistral: exactly
   * nine alphanumerics); adapters with such rules also apply them on the way out, deterministically.
   */
  toolCallIdRules?: ToolCallIdRules & { exactLength?: number };
}

/** The history as the target should see it, and the tool-call ids that were renamed. */
export interface TransferredHistory {
  messages: Message[];
  /** Old id → new id of every renamed tool call (its `tool_result`s were renamed the same way). */
  toolCallIds: ReadonlyMap<string, string>;
}

/**
 * Tool-call ids valid for Anthropic (`^[a-zA-Z0-9_-]+$`), Bedrock (1–64 of those), OpenAI Chat
 * Completions (≤ 40 characters) and Responses (≤ 64), Gemini, Cohere and Ollama alike.
 */
export const PORTABLE_TOOL_CALL_ID_RULES: ToolCallIdRules = { allowed: /[a-zA-Z0-9_-]/, maxLength: 40 };

/** What an image becomes for a model without vision. */
export const IMAGE_PLACEHOLDER = '[An image was here; the current model cannot see images.]';

/** The provider-metadata key each built-in adapter writes; a third party's adapter is assumed to use its id. */
const ADAPTER_METADATA_KEYS: Readonly<Record<string, string>> = {
  'anthropic-messages': 'anthropic',
  'openai-chat': 'openai-chat',
  'openai-responses': 'openai-responses',
  gemini: 'gemini',
  'bedrock-converse': 'bedrock',
  'cohere-v2': 'cohere',
  ollama: 'ollama',
};

/**
 * Prepares a conversation for another provider (a fallback to another vendor, or a user switching
 * models), without touching the stored history: the result is a new array. Call it when the loop
 * switches provider, and keep sending the result to the new one.
 *
 * The rule for reasoning the target cannot verify. Thinking is only verifiable by the provider that
 * produced it (same provider id and adapter: its signatures, encrypted reasoning and item ids are
 * sent back unchanged, as the adapters do; a model change within one provider counts as the same
 * provider, and the vendor decides). Otherwise:
 * - thinking of the unfinished turn (the assistant messages after the last user message that is not
 *   only tool results) becomes a plain text block in its place, so the new model knows why the
 *   pending tool calls were made; its signature and metadata are left behind;
 * - thinking of finished turns is dropped, as vendors drop their own earlier reasoning (Anthropic
 *   strips it from the context, OpenAI drops reasoning items between turns, DeepSeek ignores it);
 * - redacted (encrypted) thinking and signature-only thinking are dropped: nobody else can read them;
 * - when the target uses the same adapter as the source but is another provider (Anthropic →
 *   MiniMax, OpenAI → Azure), the source's provider metadata (Gemini thought signatures, Responses
 *   item ids, Anthropic server blocks) is removed too, since the target would otherwise replay it.
 *
 * Tool-call ids that break the target's rules are renamed deterministically (invalid characters
 * replaced and a short hash of the original added, or a hash of allowed characters where that cannot
 * fit), so a `tool_use` and every `tool_result` naming it get the same new id; a counter is added on
 * the rare collision, and the mapping is returned. Images (also inside tool results) become {@link IMAGE_PLACEHOLDER}
 * when `vision` is false, and PDFs a similar note when `documents` is false.
 *
 * @example
 * const moved = transferHistory(messages, {
 *   from: { adapter: 'anthropic-messages', providerId: 'anthropic' },
 *   to: { adapter: 'openai-chat', providerId: 'deepseek' },
 *   vision: false,
 * });
 * for await (const event of deepseek.streamMessage({ model: 'deepseek-chat', messages: moved.messages })) { ... }
 */
export function transferHistory(messages: readonly Message[], options: TransferHistoryOptions): TransferredHistory {
  const sameProvider = options.from.providerId === options.to.providerId && options.from.adapter === options.to.adapter;
  const staleMetadataKey =
    !sameProvider && options.from.adapter === options.to.adapter ? metadataKeyOf(options.from.adapter) : undefined;
  const ids = sameProvider ? new Map<string, string>() : renameToolCallIds(messages, options.toolCallIdRules);
  const currentTurnStart = lastUserPromptIndex(messages) + 1;
  const media = { vision: options.vision !== false, documents: options.documents !== false };

  const transferred = messages.map((message, index): Message => {
    if (message.role === 'system') return message;
    if (message.role === 'user') return transferUserMessage(message.content, message, ids, media);
    if (sameProvider) return message;
    return transferAssistantMessage(message, { ids, staleMetadataKey, currentTurn: index >= currentTurnStart });
  });
  return { messages: transferred, toolCallIds: ids };
}

function metadataKeyOf(adapter: string): string {
  return ADAPTER_METADATA_KEYS[adapter] ?? adapter;
}

/** Index of the last user message holding more than tool results (the prompt of the turn), or -1. */
function lastUserPromptIndex(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'user') continue;
    if (typeof message.content === 'string' || message.content.some((block) => block.type !== 'tool_result')) {
      return index;
    }
  }
  return -1;
}

/** Old id → new id for every tool-call id that breaks the rules; distinct ids stay distinct. */
function renameToolCallIds(
  messages: readonly Message[],
  rules: TransferHistoryOptions['toolCallIdRules'],
): Map<string, string> {
  const effective: NonNullable<TransferHistoryOptions['toolCallIdRules']> = rules ?? PORTABLE_TOOL_CALL_ID_RULES;
  const renamed = new Map<string, string>();
  const taken = new Set<string>();
  const seen = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      const id = block.type === 'tool_use' ? block.id : block.type === 'tool_result' ? block.toolUseId : undefined;
      if (id !== undefined) seen.add(id);
    }
  }
  for (const id of seen) if (toChatToolCallId(id, effective) === id) taken.add(id);
  for (const id of seen) {
    const candidate = toChatToolCallId(id, effective);
    if (candidate === id) continue;
    let unique = candidate;
    // A collision (another id already has this form) takes a counter, staying within the rules.
    for (let counter = 2; taken.has(unique); counter += 1) {
      const suffix = String(counter);
      const length = effective.exactLength ?? effective.maxLength ?? candidate.length + suffix.length;
      unique = `${candidate.slice(0, Math.max(1, length - suffix.length))}${suffix}`;
    }
    taken.add(unique);
    renamed.set(id, unique);
  }
  return renamed;
}

function transferUserMessage(
  content: string | UserContentBlock[],
  message: Extract<Message, { role: 'user' }>,
  ids: ReadonlyMap<string, string>,
  media: { vision: boolean; documents: boolean },
): Message {
  if (typeof content === 'string') return message;
  const blocks = content.map((block): UserContentBlock => {
    switch (block.type) {
      case 'image':
        return media.vision ? block : { type: 'text', text: IMAGE_PLACEHOLDER };
      case 'document':
        return media.documents ? block : { type: 'text', text: documentPlaceholder(block) };
      case 'tool_result':
        return transferToolResult(block, ids, media.vision);
      default:
        return block;
    }
  });
  return { ...message, content: blocks };
}

function transferToolResult(
  block: ToolResultBlock,
  ids: ReadonlyMap<string, string>,
  vision: boolean,
): ToolResultBlock {
  const toolUseId = ids.get(block.toolUseId) ?? block.toolUseId;
  const content =
    typeof block.content === 'string' || vision
      ? block.content
      : block.content.map((part): TextBlock | ImageBlock =>
          part.type === 'image' ? { type: 'text', text: IMAGE_PLACEHOLDER } : part,
        );
  return { ...block, toolUseId, content };
}

function documentPlaceholder(block: DocumentBlock): string {
  const title = block.title === undefined ? '' : ` "${block.title}"`;
  return `[A document${title} was here; the current model cannot read documents.]`;
}

function transferAssistantMessage(
  message: AssistantMessage,
  context: { ids: ReadonlyMap<string, string>; staleMetadataKey: string | undefined; currentTurn: boolean },
): AssistantMessage {
  const content: AssistantContentBlock[] = [];
  const converted = new Set<AssistantContentBlock>();
  for (const block of message.content) {
    if (block.type === 'thinking') {
      if (!context.currentTurn || block.thinking.trim() === '') continue;
      const text: TextBlock = { type: 'text', text: block.thinking };
      converted.add(text);
      content.push(text);
    } else if (block.type === 'tool_use') {
      content.push(
        withoutMetadataKey({ ...block, id: context.ids.get(block.id) ?? block.id }, context.staleMetadataKey),
      );
    } else if (block.type !== 'redacted_thinking') {
      content.push(withoutMetadataKey(block, context.staleMetadataKey));
    }
  }
  // Adapters that join an assistant's texts (Chat Completions, Ollama) would run the reasoning into the answer.
  content.forEach((block, index) => {
    if (converted.has(block) && block.type === 'text' && content[index + 1]?.type === 'text') block.text += '\n\n';
  });
  return withoutMetadataKey({ ...message, content }, context.staleMetadataKey);
}

/** A copy of `value` without `providerMetadata[key]` (and without `providerMetadata` when it empties). */
function withoutMetadataKey<T extends ContentBlockBase>(value: T, key: string | undefined): T {
  if (key === undefined || value.providerMetadata?.[key] === undefined) return value;
  const { [key]: _removed, ...rest } = value.providerMetadata;
  const { providerMetadata: _old, ...base } = value;
  return (Object.keys(rest).length === 0 ? base : { ...base, providerMetadata: rest as ProviderMetadata }) as T;
}
