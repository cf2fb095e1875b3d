import { toVendorToolCallId } from '../../shared/tool-call-ids.js';
import { toProviderUserContent } from '../../shared/transcript-blocks.js';
import type {
  AssistantContentBlock,
  DocumentBlock,
  ImageBlock,
  Message,
  TextBlock,
  ToolResultBlock,
  UserContentBlock,
} from '../../spec/message.js';
import { readOpenAIResponsesMetadata } from './openai-responses-metadata.js';

/** One item of the Responses `input` array, as sent (plain JSON). */
export type OpenAIResponsesInputItem = Record<string, unknown>;

/** Options of {@link convertToOpenAIResponsesInput}. */
export interface ConvertToOpenAIResponsesInputOptions {
  /**
   * Whether responses are stored server-side (`store`). When false, item ids of earlier output
   * (`msg_…`, `fc_…`) are not sent (the server cannot resolve them) and reasoning items without
   * `encrypted_content` are dropped (they would only reference reasoning the server did not keep).
   */
  store: boolean;
}

/**
 * Responses `call_id` values are limited to 64 characters; longer ids from other vendors are
 * shortened deterministically, the same way for a call and its output.
 */
export const OPENAI_RESPONSES_TOOL_CALL_ID_RULES = { maxLength: 64 } as const;

/**
 * Converts the conversation to Responses `input` items, in order:
 * - system messages inside the conversation → `developer` messages (the request's `system` prompt
 *   goes to `instructions`, see the request builder);
 * - user text → `input_text`, images → `input_image` (base64 as a data URL, or the URL), documents
 *   → `input_file` (`file_data` data URL with a file name, or `file_url`); empty text is dropped;
 * - tool results → `function_call_output` (or `custom_tool_call_output` for a custom tool call)
 *   items, placed where they are, with images in the output list; the API has no error flag, so
 *   an error result is sent as its text;
 * - assistant text → `message` items of `output_text` (or `refusal`) parts, grouped by the item
 *   they came from, with `phase` resent as received;
 * - this adapter's thinking blocks → `reasoning` items rebuilt from provider metadata (item id,
 *   `encrypted_content`, summary and reasoning text parts in order), placed before the output that
 *   followed them, exactly as received; thinking from other vendors cannot be replayed to OpenAI
 *   and is left out;
 * - tool calls → `function_call` (or `custom_tool_call`) items with `call_id`.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
 * @see https://platform.openai.com/docs/guides/reasoning#keeping-reasoning-items-in-context
 */
export function convertToOpenAIResponsesInput(
  messages: readonly Message[],
  options: ConvertToOpenAIResponsesInputOptions,
): OpenAIResponsesInputItem[] {
  const customCallIds = collectCustomToolCallIds(messages);
  const items: OpenAIResponsesInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system': {
        const text = typeof message.content === 'string' ? message.content : joinText(message.content);
        if (text !== '') items.push({ role: 'developer', content: text });
        break;
      }
      case 'user':
        convertUserContent(message.content, customCallIds, items);
        break;
      case 'assistant':
        convertAssistantContent(message.content, options, items);
        break;
    }
  }
  return items;
}

function joinText(blocks: readonly TextBlock[]): string {
  return blocks
    .map((block) => block.text)
    .filter((text) => text !== '')
    .join('\n\n');
}

function collectCustomToolCallIds(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const block of message.content) {
      if (block.type === 'tool_use' && readOpenAIResponsesMetadata(block)?.customToolCall === true) ids.add(block.id);
    }
  }
  return ids;
}

function convertUserContent(
  content: string | readonly UserContentBlock[],
  customCallIds: ReadonlySet<string>,
  items: OpenAIResponsesInputItem[],
): void {
  if (typeof content === 'string') {
    if (content !== '') items.push({ role: 'user', content: [{ type: 'input_text', text: content }] });
    return;
  }
  let parts: Record<string, unknown>[] = [];
  const flush = () => {
    if (parts.length > 0) items.push({ role: 'user', content: parts });
    parts = [];
  };
  for (const block of toProviderUserContent(content, { documentContextAsText: true })) {
    if (block.type === 'tool_result') {
      flush();
      items.push(toolResultItem(block, customCallIds));
      continue;
    }
    const part = userPart(block);
    if (part !== undefined) parts.push(part);
  }
  flush();
}

function userPart(block: TextBlock | ImageBlock | DocumentBlock): Record<string, unknown> | undefined {
  switch (block.type) {
    case 'text':
      return block.text === '' ? undefined : { type: 'input_text', text: block.text };
    case 'image':
      return imagePart(block);
    case 'document':
      if (block.source.type === 'url') return { type: 'input_file', file_url: block.source.url };
      return {
        type: 'input_file',
        filename: block.title ?? defaultFileName(block.source.mediaType),
        file_data: `data:${block.source.mediaType};base64,${block.source.data}`,
      };
  }
}

function imagePart(block: ImageBlock): Record<string, unknown> {
  const url =
    block.source.type === 'url' ? block.source.url : `data:${block.source.mediaType};base64,${block.source.data}`;
  return { type: 'input_image', image_url: url, detail: 'auto' };
}

function defaultFileName(mediaType: string): string {
  if (mediaType === 'application/pdf') return 'document.pdf';
  if (mediaType.startsWith('text/')) return 'document.txt';
  return 'document';
}

/** @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input-input_item_list-item-function_tool_call_output */
function toolResultItem(block: ToolResultBlock, customCallIds: ReadonlySet<string>): OpenAIResponsesInputItem {
  const output =
    typeof block.content === 'string'
      ? block.content
      : block.content.flatMap((part) => {
          if (part.type === 'image') return [imagePart(part)];
          return part.text === '' ? [] : [{ type: 'input_text', text: part.text }];
        });
  return {
    type: customCallIds.has(block.toolUseId) ? 'custom_tool_call_output' : 'function_call_output',
    call_id: toVendorToolCallId(block.toolUseId, OPENAI_RESPONSES_TOOL_CALL_ID_RULES),
    output,
  };
}

interface PendingReasoning {
  id: string;
  summary: Array<{ type: 'summary_text'; text: string }>;
  content: Array<{ type: 'reasoning_text'; text: string }>;
  encryptedContent: string | undefined;
}

interface PendingMessage {
  id: string | undefined;
  phase: string | undefined;
  parts: Record<string, unknown>[];
}

function convertAssistantContent(
  blocks: readonly AssistantContentBlock[],
  options: ConvertToOpenAIResponsesInputOptions,
  items: OpenAIResponsesInputItem[],
): void {
  let reasoning: PendingReasoning | undefined;
  let message: PendingMessage | undefined;
  const flushReasoning = () => {
    if (reasoning !== undefined) pushReasoning(reasoning, options, items);
    reasoning = undefined;
  };
  const flushMessage = () => {
    if (message !== undefined && message.parts.length > 0) pushMessage(message, options, items);
    message = undefined;
  };
  const reasoningFor = (itemId: string): PendingReasoning => {
    flushMessage();
    if (reasoning !== undefined && reasoning.id !== itemId) flushReasoning();
    reasoning ??= { id: itemId, summary: [], content: [], encryptedContent: undefined };
    return reasoning;
  };

  for (const block of blocks) {
    const metadata = readOpenAIResponsesMetadata(block);
    const itemId = typeof metadata?.itemId === 'string' ? metadata.itemId : undefined;
    switch (block.type) {
      case 'thinking': {
        if (itemId === undefined) break;
        const pending = reasoningFor(itemId);
        if (metadata?.reasoningText === true) pending.content.push({ type: 'reasoning_text', text: block.thinking });
        else pending.summary.push({ type: 'summary_text', text: block.thinking });
        if (typeof metadata?.encryptedContent === 'string') pending.encryptedContent = metadata.encryptedContent;
        break;
      }
      case 'redacted_thinking': {
        if (itemId === undefined) break;
        const pending = reasoningFor(itemId);
        if (block.data !== '') pending.encryptedContent = block.data;
        break;
      }
      case 'text': {
        flushReasoning();
        if (block.text === '') break;
        if (message !== undefined && message.id !== itemId) flushMessage();
        message ??= { id: itemId, phase: typeof metadata?.phase === 'string' ? metadata.phase : undefined, parts: [] };
        message.parts.push(
          metadata?.refusal === true
            ? { type: 'refusal', refusal: block.text }
            : { type: 'output_text', text: block.text, annotations: [] },
        );
        break;
      }
      case 'tool_use':
        flushReasoning();
        flushMessage();
        items.push(toolCallItem(block, itemId, metadata?.customToolCall === true, options));
        break;
    }
  }
  flushReasoning();
  flushMessage();
}

/** @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input-input_item_list-item-reasoning */
function pushReasoning(
  reasoning: PendingReasoning,
  options: ConvertToOpenAIResponsesInputOptions,
  items: OpenAIResponsesInputItem[],
): void {
  if (!options.store && reasoning.encryptedContent === undefined) return;
  items.push({
    type: 'reasoning',
    id: reasoning.id,
    summary: reasoning.summary,
    ...(reasoning.content.length === 0 ? {} : { content: reasoning.content }),
    ...(reasoning.encryptedContent === undefined ? {} : { encrypted_content: reasoning.encryptedContent }),
  });
}

/** @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input-input_item_list-item-output_message */
function pushMessage(
  message: PendingMessage,
  options: ConvertToOpenAIResponsesInputOptions,
  items: OpenAIResponsesInputItem[],
): void {
  items.push({
    type: 'message',
    role: 'assistant',
    content: message.parts,
    ...(options.store && message.id !== undefined ? { id: message.id, status: 'completed' } : {}),
    ...(message.phase === undefined ? {} : { phase: message.phase }),
  });
}

/** @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input-input_item_list-item-function_tool_call */
function toolCallItem(
  block: Extract<AssistantContentBlock, { type: 'tool_use' }>,
  itemId: string | undefined,
  custom: boolean,
  options: ConvertToOpenAIResponsesInputOptions,
): OpenAIResponsesInputItem {
  const id = options.store && itemId !== undefined ? { id: itemId } : {};
  const callId = toVendorToolCallId(block.id, OPENAI_RESPONSES_TOOL_CALL_ID_RULES);
  if (custom) {
    const input = typeof block.input.input === 'string' ? block.input.input : JSON.stringify(block.input);
    return { type: 'custom_tool_call', call_id: callId, name: block.name, input, ...id };
  }
  // Arguments that were not valid JSON were stored as `{}` with an input error: resend `{}` rather
  // than text the API might reject, so the conversation stays sendable.
  return { type: 'function_call', call_id: callId, name: block.name, arguments: JSON.stringify(block.input), ...id };
}
