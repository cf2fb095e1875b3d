import { systemPromptSegments } from '../../shared/system-prompt.js';
import { toProviderUserContent } from '../../shared/transcript-blocks.js';
import type {
  AssistantMessage,
  DocumentBlock,
  ImageBlock,
  MediaSource,
  Message,
  TextBlock,
  ToolResultBlock,
  UserContentBlock,
} from '../../spec/message.js';
import type { SystemPrompt } from '../../spec/request.js';
import { OPENAI_CHAT_METADATA_KEY, type OpenAIChatCompat } from './openai-chat-settings.js';
import { toChatToolCallId } from './openai-chat-tool-call-id.js';

/** A content part of a user (or system) message. @see https://platform.openai.com/docs/api-reference/chat/create */
export type ChatContentPart =
  | { type: 'text'; text: string; cache_control?: { type: 'ephemeral' } }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'file'; file: { filename?: string; file_data: string } };

/** A tool call of an assistant message. */
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** One message of the `messages` array. */
export type ChatMessage =
  | { role: 'system' | 'developer'; content: string | ChatContentPart[] }
  | { role: 'user'; content: string | ChatContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: ChatToolCall[];
      reasoning_content?: string;
      reasoning_details?: unknown[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

type Compat = Pick<
  OpenAIChatCompat,
  | 'supportsDeveloperRole'
  | 'supportsCacheControl'
  | 'supportsDocuments'
  | 'echoReasoningContent'
  | 'echoReasoningDetails'
  | 'toolCallIdRules'
>;

/**
 * Converts the system prompt and conversation to Chat Completions `messages`.
 *
 * - System prompt: one `system` (or `developer`) message; with `supportsCacheControl`, text parts with
 *   `cache_control` on the part before the cache boundary. System messages inside the history keep their place.
 * - User: text only becomes a string (blocks joined by a blank line; some servers, DeepSeek among them,
 *   take strings only); images become `image_url` parts (base64 as a data URL); PDFs become `file` parts
 *   (base64 only) when `supportsDocuments`, otherwise a text note. Empty text is dropped.
 * - Tool results: one `tool` message per result, before the rest of the user turn. Chat Completions
 *   takes no images in a tool message, so a result's images are replaced by a note in its text and
 *   sent in a user message right after the tool messages (with the turn's own content, if any).
 * - Assistant: text joined as `content` (`null` when there are only tool calls), `tool_use` blocks as
 *   `tool_calls` (arguments re-serialised from the parsed input: `{}` when the model's JSON was bad),
 *   reasoning as `reasoning_content` when `echoReasoningContent` (see {@link OpenAIChatCompat}),
 *   OpenRouter `reasoning_details` from the message metadata when `echoReasoningDetails`. Redacted
 *   thinking has no Chat Completions form and is dropped. A message left empty is dropped.
 * - Every tool-call id goes through `toolCallIdRules`, on calls and results alike.
 */
export function convertMessages(
  system: SystemPrompt | undefined,
  messages: readonly Message[],
  compat: Compat,
): ChatMessage[] {
  const systemRole = compat.supportsDeveloperRole ? 'developer' : 'system';
  const result: ChatMessage[] = [];
  const systemMessage = convertSystemPrompt(system, systemRole, compat.supportsCacheControl);
  if (systemMessage !== undefined) result.push(systemMessage);
  for (const message of messages) {
    switch (message.role) {
      case 'system': {
        const text = typeof message.content === 'string' ? message.content : joinText(message.content);
        if (text !== '') result.push({ role: systemRole, content: text });
        break;
      }
      case 'user':
        result.push(...convertUserMessage(message.content, compat));
        break;
      case 'assistant': {
        const converted = convertAssistantMessage(message, compat);
        if (converted !== undefined) result.push(converted);
        break;
      }
    }
  }
  return result;
}

function convertSystemPrompt(
  system: SystemPrompt | undefined,
  role: 'system' | 'developer',
  cacheControl: boolean,
): ChatMessage | undefined {
  const segments = systemPromptSegments(system);
  if (segments.length === 0) return undefined;
  if (!cacheControl || !segments.some((segment) => segment.cacheBreakpoint)) {
    return { role, content: segments.map((segment) => segment.text).join('\n\n') };
  }
  return {
    role,
    content: segments.map((segment) => ({
      type: 'text' as const,
      text: segment.text,
      ...(segment.cacheBreakpoint ? { cache_control: { type: 'ephemeral' as const } } : {}),
    })),
  };
}

function convertUserMessage(content: string | UserContentBlock[], compat: Compat): ChatMessage[] {
  if (typeof content === 'string') return content === '' ? [] : [{ role: 'user', content }];
  const toolMessages: ChatMessage[] = [];
  const toolImages: ChatContentPart[] = [];
  const parts: ChatContentPart[] = [];
  for (const block of toProviderUserContent(content, { documentContextAsText: true })) {
    switch (block.type) {
      case 'tool_result': {
        const { message, images } = convertToolResult(block, compat);
        toolMessages.push(message);
        if (images.length > 0) {
          toolImages.push({ type: 'text', text: `Images from the result of tool call ${message.tool_call_id}:` });
          toolImages.push(...images);
        }
        break;
      }
      case 'text':
        if (block.text !== '') parts.push({ type: 'text', text: block.text });
        break;
      case 'image':
        parts.push(imagePart(block));
        break;
      case 'document':
        parts.push(documentPart(block, compat.supportsDocuments));
        break;
    }
  }
  const userParts = [...toolImages, ...parts];
  if (userParts.length === 0) return toolMessages;
  const textOnly = userParts.every((part) => part.type === 'text');
  const userContent = textOnly ? userParts.map((part) => (part as { text: string }).text).join('\n\n') : userParts;
  return [...toolMessages, { role: 'user', content: userContent }];
}

function convertToolResult(
  block: ToolResultBlock,
  compat: Compat,
): { message: Extract<ChatMessage, { role: 'tool' }>; images: ChatContentPart[] } {
  const toolCallId = toChatToolCallId(block.toolUseId, compat.toolCallIdRules);
  if (typeof block.content === 'string') {
    return { message: { role: 'tool', tool_call_id: toolCallId, content: block.content }, images: [] };
  }
  const texts: string[] = [];
  const images: ChatContentPart[] = [];
  for (const part of block.content) {
    if (part.type === 'text') {
      if (part.text !== '') texts.push(part.text);
    } else {
      images.push(imagePart(part));
      texts.push(`[Image ${images.length} of this result is attached in the next user message.]`);
    }
  }
  return { message: { role: 'tool', tool_call_id: toolCallId, content: texts.join('\n') }, images };
}

function convertAssistantMessage(message: AssistantMessage, compat: Compat): ChatMessage | undefined {
  const texts: string[] = [];
  const thinking: string[] = [];
  const toolCalls: ChatToolCall[] = [];
  for (const block of message.content) {
    if (block.type === 'text') {
      if (block.text !== '') texts.push(block.text);
    } else if (block.type === 'thinking') {
      thinking.push(block.thinking);
    } else if (block.type === 'tool_use') {
      toolCalls.push({
        id: toChatToolCallId(block.id, compat.toolCallIdRules),
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input) },
      });
    }
  }
  const reasoning = thinking.join('');
  const details = compat.echoReasoningDetails ? reasoningDetailsOf(message) : undefined;
  if (texts.length === 0 && toolCalls.length === 0 && (reasoning === '' || !compat.echoReasoningContent)) {
    return undefined;
  }
  const converted: Extract<ChatMessage, { role: 'assistant' }> = {
    role: 'assistant',
    content: texts.length === 0 && toolCalls.length > 0 ? null : texts.join(''),
  };
  if (toolCalls.length > 0) converted.tool_calls = toolCalls;
  if (compat.echoReasoningContent && (reasoning !== '' || toolCalls.length > 0))
    converted.reasoning_content = reasoning;
  if (details !== undefined) converted.reasoning_details = details;
  return converted;
}

function reasoningDetailsOf(message: AssistantMessage): unknown[] | undefined {
  const details = message.providerMetadata?.[OPENAI_CHAT_METADATA_KEY]?.reasoning_details;
  return Array.isArray(details) && details.length > 0 ? details : undefined;
}

function imagePart(block: ImageBlock): ChatContentPart {
  return { type: 'image_url', image_url: { url: mediaUrl(block.source) } };
}

function documentPart(block: DocumentBlock, supported: boolean): ChatContentPart {
  const title = block.title ?? 'document.pdf';
  if (supported && block.source.type === 'base64') {
    return { type: 'file', file: { filename: title, file_data: mediaUrl(block.source) } };
  }
  const where = block.source.type === 'url' ? ` (${block.source.url})` : '';
  return {
    type: 'text',
    text: `[A document "${title}"${where} was attached here, but this model cannot read documents.]`,
  };
}

function mediaUrl(source: MediaSource): string {
  return source.type === 'url' ? source.url : `data:${source.mediaType};base64,${source.data}`;
}

function joinText(blocks: readonly TextBlock[]): string {
  return blocks
    .map((block) => block.text)
    .filter((text) => text !== '')
    .join('\n\n');
}
