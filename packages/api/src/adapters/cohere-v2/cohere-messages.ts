import { systemPromptText } from '../../shared/system-prompt.js';
import { toProviderUserContent } from '../../shared/transcript-blocks.js';
import type { AssistantContentBlock, Message, ToolResultBlock, UserContentBlock } from '../../spec/message.js';
import type { SystemPrompt } from '../../spec/request.js';
import type { CohereAssistantContent, CohereMessage, CohereToolCall, CohereUserContent } from './cohere-wire.js';

/**
 * Converts a system prompt and conversation to Cohere v2 `messages`:
 * - the system prompt and any system messages become one leading `system` message (Cohere caches
 *   prompt prefixes itself, so the cache boundary needs no marker);
 * - user text and images (`image_url`: a web URL, or base64 as a `data:` URI) go in a `user`
 *   message; documents become a text note (v2 chat takes no PDF content);
 * - each `tool_result` becomes a `tool` message with its `tool_call_id`, before the rest of its user
 *   turn; images in a result become a note (tool content is text or documents only), and an error
 *   result is prefixed with `Error: `;
 * - an assistant turn replays its thinking as `thinking` content (Cohere has no signatures and no
 *   redacted thinking, so redacted blocks are dropped), its tool calls as `tool_calls` with the
 *   input as JSON text, and its text as `tool_plan` when it has tool calls (that is where Cohere puts
 *   a tool turn's text, and where the adapter reads it from) or as `text` content otherwise.
 * Blank text is dropped; a turn left empty is skipped.
 *
 * @see https://docs.cohere.com/reference/chat#request.body.messages
 * @see https://docs.cohere.com/v2/docs/tool-use-overview
 */
export function convertToCohereMessages(
  systemPrompt: SystemPrompt | undefined,
  messages: readonly Message[],
): CohereMessage[] {
  const systemParts = [systemPromptText(systemPrompt)];
  const converted: CohereMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        systemParts.push(
          typeof message.content === 'string' ? message.content : message.content.map((block) => block.text).join(''),
        );
        break;
      case 'user':
        converted.push(...userMessages(message.content));
        break;
      case 'assistant': {
        const assistant = assistantMessage(message.content);
        if (assistant !== undefined) converted.push(assistant);
        break;
      }
    }
  }
  const system = systemParts.filter((part) => part.trim() !== '').join('\n\n');
  return system === '' ? converted : [{ role: 'system', content: system }, ...converted];
}

function userMessages(content: string | readonly UserContentBlock[]): CohereMessage[] {
  if (typeof content === 'string') return content.trim() === '' ? [] : [{ role: 'user', content }];
  const tools: CohereMessage[] = [];
  const parts: CohereUserContent[] = [];
  for (const block of toProviderUserContent(content, { documentContextAsText: true })) {
    switch (block.type) {
      case 'text':
        if (block.text.trim() !== '') parts.push({ type: 'text', text: block.text });
        break;
      case 'image':
        parts.push({ type: 'image_url', image_url: { url: mediaUrl(block.source) } });
        break;
      case 'document':
        parts.push({
          type: 'text',
          text: `[${documentLabel(block.title)} omitted: Cohere chat takes no document files]`,
        });
        break;
      case 'tool_result':
        tools.push(toolMessage(block));
        break;
    }
  }
  return parts.length === 0 ? tools : [...tools, { role: 'user', content: parts }];
}

function toolMessage(block: ToolResultBlock): CohereMessage {
  const texts: string[] = [];
  if (typeof block.content === 'string') texts.push(block.content);
  else {
    for (const part of block.content) {
      texts.push(part.type === 'text' ? part.text : '[image omitted: Cohere tool results take text only]');
    }
  }
  let text = texts.filter((part) => part !== '').join('\n');
  if (text === '') text = '(no output)';
  if (block.isError === true) text = `Error: ${text}`;
  return { role: 'tool', tool_call_id: block.toolUseId, content: [{ type: 'text', text }] };
}

function assistantMessage(content: readonly AssistantContentBlock[]): CohereMessage | undefined {
  const thinking: CohereAssistantContent[] = [];
  const texts: string[] = [];
  const toolCalls: CohereToolCall[] = [];
  for (const block of content) {
    switch (block.type) {
      case 'thinking':
        // The tool plan streams as thinking marked `cohere.toolPlan`; it goes back where it came from.
        if (isToolPlan(block)) {
          if (block.thinking.trim() !== '') texts.push(block.thinking);
        } else if (block.thinking !== '') thinking.push({ type: 'thinking', thinking: block.thinking });
        break;
      case 'text':
        if (block.text.trim() !== '') texts.push(block.text);
        break;
      case 'tool_use':
        toolCalls.push({
          id: block.id,
          type: 'function',
          function: { name: block.name, arguments: JSON.stringify(block.input) },
        });
        break;
      case 'redacted_thinking':
        break;
    }
  }
  if (toolCalls.length > 0) {
    return {
      role: 'assistant',
      ...(thinking.length === 0 ? {} : { content: thinking }),
      ...(texts.length === 0 ? {} : { tool_plan: texts.join('\n\n') }),
      tool_calls: toolCalls,
    };
  }
  const parts: CohereAssistantContent[] = [...thinking, ...texts.map((text) => ({ type: 'text' as const, text }))];
  return parts.length === 0 ? undefined : { role: 'assistant', content: parts };
}

function mediaUrl(source: { type: 'base64'; data: string; mediaType: string } | { type: 'url'; url: string }): string {
  return source.type === 'url' ? source.url : `data:${source.mediaType};base64,${source.data}`;
}

function documentLabel(title: string | undefined): string {
  return title === undefined || title === '' ? 'document' : `document "${title}"`;
}

/** A block this adapter marked as the turn's `tool_plan` (a thinking block; text in earlier versions). */
function isToolPlan(block: { providerMetadata?: Record<string, Record<string, unknown> | undefined> }): boolean {
  // 'cohere' is COHERE_PROTOCOL_ID, spelled out: cohere-request imports this file.
  return block.providerMetadata?.cohere?.toolPlan === true;
}
