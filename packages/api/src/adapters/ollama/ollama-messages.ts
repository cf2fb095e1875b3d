import { systemPromptText } from '../../shared/system-prompt.js';
import { type ProviderUserContentBlock, toProviderUserContent } from '../../shared/transcript-blocks.js';
import type { AssistantMessage, ImageBlock, MediaSource, Message, TextBlock } from '../../spec/message.js';
import type { SystemPrompt } from '../../spec/request.js';
import type { OllamaMessage, OllamaToolCall } from './ollama-wire.js';

/**
 * What this adapter stores under `providerMetadata.ollama` of a tool-use block: `toolCallId`, the
 * id Ollama gave the call (recent versions send one), replayed as the call's `id` and as
 * `tool_call_id` on its result. Calls Ollama sent without an id get a generated one that is not sent
 * back.
 */
export interface OllamaBlockMetadata {
  toolCallId?: string;
}

/** Reads this adapter's metadata from a block (other vendors' keys are ignored). */
export function ollamaMetadata(block: {
  providerMetadata?: Record<string, Record<string, unknown>>;
}): OllamaBlockMetadata {
  const id = block.providerMetadata?.ollama?.toolCallId;
  return typeof id === 'string' ? { toolCallId: id } : {};
}

/**
 * Converts the conversation to Ollama messages: the system prompt first (one string; Ollama caches
 * the prompt prefix by itself), user text joined and base64 images in `images`, assistant text with
 * its reasoning replayed in `thinking` and its calls in `tool_calls` (arguments as objects), and each
 * tool result as a `tool` message naming the function in `tool_name` (before any text of the same
 * user turn). Ollama takes images only inline: an image URL or a document becomes a note in the text
 * instead. Empty messages are left out.
 *
 * @see https://docs.ollama.com/api/chat
 * @see https://docs.ollama.com/capabilities/tool-calling
 */
export function convertToOllamaMessages(
  messages: readonly Message[],
  system: SystemPrompt | undefined,
): OllamaMessage[] {
  const converted: OllamaMessage[] = [];
  const systemText = systemPromptText(system);
  if (systemText !== '') converted.push({ role: 'system', content: systemText });
  const calls = new Map<string, { name: string; toolCallId: string | undefined }>();

  for (const message of messages) {
    if (message.role === 'system') {
      const text = typeof message.content === 'string' ? message.content : joinText(message.content);
      if (text !== '') converted.push({ role: 'system', content: text });
    } else if (message.role === 'assistant') {
      for (const block of message.content) {
        if (block.type === 'tool_use')
          calls.set(block.id, { name: block.name, toolCallId: ollamaMetadata(block).toolCallId });
      }
      const assistant = assistantMessage(message);
      if (assistant !== undefined) converted.push(assistant);
    } else {
      const blocks: readonly ProviderUserContentBlock[] =
        typeof message.content === 'string'
          ? [{ type: 'text', text: message.content }]
          : toProviderUserContent(message.content, { documentContextAsText: true });
      converted.push(...userMessages(blocks, calls));
    }
  }
  return converted;
}

function assistantMessage(message: AssistantMessage): OllamaMessage | undefined {
  const text: string[] = [];
  const thinking: string[] = [];
  const toolCalls: OllamaToolCall[] = [];
  for (const block of message.content) {
    if (block.type === 'text' && block.text !== '') text.push(block.text);
    else if (block.type === 'thinking' && block.thinking !== '') thinking.push(block.thinking);
    else if (block.type === 'tool_use') {
      const id = ollamaMetadata(block).toolCallId;
      toolCalls.push({ ...(id === undefined ? {} : { id }), function: { name: block.name, arguments: block.input } });
    }
  }
  if (text.length === 0 && thinking.length === 0 && toolCalls.length === 0) return undefined;
  return {
    role: 'assistant',
    content: text.join(''),
    ...(thinking.length === 0 ? {} : { thinking: thinking.join('\n\n') }),
    ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
  };
}

function userMessages(
  blocks: readonly ProviderUserContentBlock[],
  calls: ReadonlyMap<string, { name: string; toolCallId: string | undefined }>,
): OllamaMessage[] {
  const results: OllamaMessage[] = [];
  const text: string[] = [];
  const images: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        if (block.text !== '') text.push(block.text);
        break;
      case 'image':
        addImage(block.source, images, text);
        break;
      case 'document':
        text.push(
          `[A document${block.title === undefined ? '' : ` ("${block.title}")`} was attached, but Ollama accepts no documents.]`,
        );
        break;
      case 'tool_result': {
        const call = calls.get(block.toolUseId);
        const content: Array<TextBlock | ImageBlock> =
          typeof block.content === 'string' ? [{ type: 'text', text: block.content }] : block.content;
        const resultText: string[] = [];
        const resultImages: string[] = [];
        for (const part of content) {
          if (part.type === 'text') resultText.push(part.text);
          else addImage(part.source, resultImages, resultText);
        }
        const body = resultText.join('\n');
        results.push({
          role: 'tool',
          content: block.isError === true ? `Error: ${body}` : body,
          tool_name: call?.name ?? block.toolUseId,
          ...(call?.toolCallId === undefined ? {} : { tool_call_id: call.toolCallId }),
          ...(resultImages.length === 0 ? {} : { images: resultImages }),
        });
        break;
      }
    }
  }
  if (text.length > 0 || images.length > 0) {
    results.push({ role: 'user', content: text.join('\n\n'), ...(images.length === 0 ? {} : { images }) });
  }
  return results;
}

/** Base64 bytes (or a `data:` URL) go in `images`; any other URL becomes a note, since Ollama fetches nothing. */
function addImage(source: MediaSource, images: string[], text: string[]): void {
  if (source.type === 'base64') {
    images.push(source.data);
    return;
  }
  const dataUrl = /^data:[^;,]+;base64,(.*)$/s.exec(source.url);
  if (dataUrl?.[1] !== undefined) images.push(dataUrl[1]);
  else text.push(`[An image at ${source.url} was attached, but Ollama accepts only inline images.]`);
}

function joinText(blocks: readonly TextBlock[]): string {
  return blocks
    .map((block) => block.text)
    .filter((text) => text !== '')
    .join('\n\n');
}
