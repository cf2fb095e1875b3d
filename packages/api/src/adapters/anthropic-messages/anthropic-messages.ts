import { ANTHROPIC_TOOL_CALL_ID_RULES, toVendorToolCallId } from '../../shared/tool-call-ids.js';
import { toProviderUserContent } from '../../shared/transcript-blocks.js';
import type {
  AssistantMessage,
  ContentBlockBase,
  DocumentBlock,
  ImageBlock,
  Message,
  ToolResultBlock,
  UserContentBlock,
} from '../../spec/message.js';
import type { ProviderMetadata } from '../../spec/provider-metadata.js';
import type { AnthropicContentBlockParam, AnthropicMessageParam } from './anthropic-wire.js';

/** The provider-metadata key this adapter writes and reads (its protocol id). */
export const ANTHROPIC_METADATA_KEY = 'anthropic';

/**
 * A content block of a type this adapter has no block for (server tool use, code-execution and
 * web-search results, ...), kept on the assistant message's metadata as
 * `providerMetadata.anthropic.serverBlocks` and sent back in place on later turns. `position` is the
 * number of the message's content blocks that came before it.
 */
export interface AnthropicServerBlock {
  position: number;
  block: Record<string, unknown> & { type: string };
}

/** Options of {@link convertToAnthropicMessages}. */
export interface ConvertToAnthropicMessagesOptions {
  /**
   * Send thinking blocks that carry no signature. Anthropic rejects them, so by default they are
   * left out; Anthropic-compatible vendors that return unsigned thinking and want it echoed need this.
   */
  replayUnsignedThinking?: boolean;
}

/** The converted conversation: `messages`, and the text of system messages to add to `system`. */
export interface ConvertedAnthropicMessages {
  messages: AnthropicMessageParam[];
  systemTexts: string[];
}

/**
 * Converts the conversation to Anthropic `messages`.
 *
 * - System messages are moved into the system prompt (returned as `systemTexts`, in order).
 * - Consecutive messages of one role are merged into one turn, and in a user turn the
 *   `tool_result` blocks come first, as the API requires.
 * - Empty text blocks are dropped (the API rejects them); a message left empty is dropped.
 * - Images and documents are sent as base64 or URL sources; a `text/plain` document is sent as a
 *   plain-text source; a document's `context` goes in the block's `context` field. Tool results may
 *   hold text and images.
 * - Transcript blocks become text blocks or are left out (`toProviderUserContent`).
 * - Thinking blocks with a signature are sent back unchanged; redacted thinking is sent back as is.
 *   Thinking from another vendor (metadata of another protocol, none of ours) is dropped, and so
 *   is unsigned thinking unless `replayUnsignedThinking` is set.
 * - Tool-call ids go through `toVendorToolCallId` with Anthropic's rules (`^[a-zA-Z0-9_-]+$`), the
 *   same mapping for a `tool_use` and its `tool_result`, so ids from other vendors stay paired.
 * - Server blocks kept in `providerMetadata.anthropic.serverBlocks` are put back in their place.
 *
 * @see https://docs.claude.com/en/api/messages
 * @see https://docs.claude.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks
 * @see https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use#handling-tool-use-and-tool-result-content-blocks
 */
export function convertToAnthropicMessages(
  messages: readonly Message[],
  options: ConvertToAnthropicMessagesOptions = {},
): ConvertedAnthropicMessages {
  const converted: AnthropicMessageParam[] = [];
  const systemTexts: string[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      const text =
        typeof message.content === 'string' ? message.content : message.content.map((block) => block.text).join('\n\n');
      if (text !== '') systemTexts.push(text);
      continue;
    }
    const content = message.role === 'user' ? userContent(message.content) : assistantContent(message, options);
    if (content.length === 0) continue;
    const previous = converted.at(-1);
    if (previous?.role === message.role && Array.isArray(previous.content)) {
      previous.content.push(...content);
    } else {
      converted.push({ role: message.role, content });
    }
  }
  for (const message of converted) {
    if (message.role === 'user' && Array.isArray(message.content)) message.content = toolResultsFirst(message.content);
  }
  return { messages: converted, systemTexts };
}

function userContent(content: string | readonly UserContentBlock[]): AnthropicContentBlockParam[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const blocks: AnthropicContentBlockParam[] = [];
  for (const block of toProviderUserContent(content)) {
    switch (block.type) {
      case 'text':
        if (block.text !== '') blocks.push({ type: 'text', text: block.text });
        break;
      case 'image':
        blocks.push(imageBlock(block));
        break;
      case 'document':
        blocks.push(documentBlock(block));
        break;
      case 'tool_result':
        blocks.push(toolResultBlock(block));
        break;
    }
  }
  return blocks;
}

function assistantContent(
  message: AssistantMessage,
  options: ConvertToAnthropicMessagesOptions,
): AnthropicContentBlockParam[] {
  const serverBlocks = readServerBlocks(message.providerMetadata);
  const blocks: AnthropicContentBlockParam[] = [];
  const addServerBlocksAt = (position: number) => {
    for (const server of serverBlocks) {
      if (server.position === position) blocks.push(server.block as unknown as AnthropicContentBlockParam);
    }
  };
  message.content.forEach((block, position) => {
    addServerBlocksAt(position);
    switch (block.type) {
      case 'text':
        if (block.text !== '') blocks.push({ type: 'text', text: block.text });
        break;
      case 'thinking':
        if (isForeign(block)) break;
        if (block.signature !== undefined && block.signature !== '') {
          blocks.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
        } else if (options.replayUnsignedThinking === true) {
          blocks.push({ type: 'thinking', thinking: block.thinking, signature: '' });
        }
        break;
      case 'redacted_thinking':
        if (!isForeign(block)) blocks.push({ type: 'redacted_thinking', data: block.data });
        break;
      case 'tool_use':
        blocks.push({
          type: 'tool_use',
          id: toVendorToolCallId(block.id, ANTHROPIC_TOOL_CALL_ID_RULES),
          name: block.name,
          input: block.input,
        });
        break;
    }
  });
  for (const server of serverBlocks) {
    if (server.position >= message.content.length) blocks.push(server.block as unknown as AnthropicContentBlockParam);
  }
  return blocks;
}

function imageBlock(block: ImageBlock): AnthropicContentBlockParam {
  if (block.source.type === 'url') return { type: 'image', source: { type: 'url', url: block.source.url } };
  return {
    type: 'image',
    source: {
      type: 'base64',
      // The API checks the media type (jpeg, png, gif, webp) and names the field it rejects.
      media_type: block.source.mediaType as 'image/png',
      data: block.source.data,
    },
  };
}

/** @see https://docs.claude.com/en/docs/build-with-claude/pdf-support */
function documentBlock(block: DocumentBlock): AnthropicContentBlockParam {
  const title = {
    ...(block.title === undefined ? {} : { title: block.title }),
    ...(block.context === undefined || block.context === '' ? {} : { context: block.context }),
  };
  const { source } = block;
  if (source.type === 'url') return { type: 'document', source: { type: 'url', url: source.url }, ...title };
  if (source.mediaType === 'text/plain') {
    const data = Buffer.from(source.data, 'base64').toString('utf8');
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data }, ...title };
  }
  return {
    type: 'document',
    source: { type: 'base64', media_type: source.mediaType as 'application/pdf', data: source.data },
    ...title,
  };
}

/** @see https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use#handling-results-from-client-tools */
function toolResultBlock(block: ToolResultBlock): AnthropicContentBlockParam {
  const toolUseId = toVendorToolCallId(block.toolUseId, ANTHROPIC_TOOL_CALL_ID_RULES);
  const isError = block.isError === true ? { is_error: true } : {};
  if (typeof block.content === 'string') {
    const content = block.content === '' ? {} : { content: block.content };
    return { type: 'tool_result', tool_use_id: toolUseId, ...content, ...isError };
  }
  const parts = block.content.flatMap((part) => {
    if (part.type === 'image') return [imageBlock(part)];
    return part.text === '' ? [] : [{ type: 'text' as const, text: part.text }];
  }) as Array<Extract<AnthropicContentBlockParam, { type: 'text' | 'image' }>>;
  return { type: 'tool_result', tool_use_id: toolUseId, ...(parts.length === 0 ? {} : { content: parts }), ...isError };
}

/** Tool results first in a user turn (a text before them is a 400), the rest in order. */
function toolResultsFirst(blocks: AnthropicContentBlockParam[]): AnthropicContentBlockParam[] {
  const results = blocks.filter((block) => block.type === 'tool_result');
  if (results.length === 0 || results.length === blocks.length) return blocks;
  return [...results, ...blocks.filter((block) => block.type !== 'tool_result')];
}

/** A block with another protocol's metadata and none of ours came from another vendor. */
function isForeign(block: ContentBlockBase): boolean {
  const metadata = block.providerMetadata;
  if (metadata === undefined) return false;
  const keys = Object.keys(metadata);
  return keys.length > 0 && !keys.includes(ANTHROPIC_METADATA_KEY);
}

/** Reads `providerMetadata.anthropic.serverBlocks`, skipping entries of the wrong shape. */
export function readServerBlocks(metadata: ProviderMetadata | undefined): AnthropicServerBlock[] {
  const stored = metadata?.[ANTHROPIC_METADATA_KEY]?.serverBlocks;
  if (!Array.isArray(stored)) return [];
  return stored.filter(
    (entry): entry is AnthropicServerBlock =>
      typeof entry === 'object' &&
      entry !== null &&
      typeof (entry as AnthropicServerBlock).position === 'number' &&
      typeof (entry as AnthropicServerBlock).block === 'object' &&
      (entry as AnthropicServerBlock).block !== null &&
      typeof (entry as AnthropicServerBlock).block.type === 'string',
  );
}
