import type { StreamEvent } from '../../spec/stream-event.js';
import { withOpenAIResponsesMetadata } from './openai-responses-metadata.js';
import type { OpenAIResponsesOutputItem } from './openai-responses-wire.js';

/** A `message` output item while it streams: each content part is one text block. */
export interface MessageItem {
  kind: 'message';
  key: string;
  wireId: string | undefined;
  phase: string | undefined;
  /** Content index → block id and whether its `text-end` is still due. */
  parts: Map<number, { blockId: string; open: boolean }>;
}

/** A `reasoning` output item while it streams: each summary or reasoning-text part is one thinking block. */
export interface ReasoningItem {
  kind: 'reasoning';
  key: string;
  wireId: string | undefined;
  /** `summary:<index>` / `content:<index>` → block id, in the order they opened. */
  blocks: Map<string, string>;
  /** The block whose `thinking-end` is held until the next part or the item's end. */
  open: string | undefined;
}

/** Opens the text block of a content part (once) and returns its block id. */
export function openTextPart(item: MessageItem, index: number, refusal: boolean, out: StreamEvent[]): string {
  const existing = item.parts.get(index);
  if (existing !== undefined) return existing.blockId;
  const blockId = `${item.key}:${index}`;
  item.parts.set(index, { blockId, open: true });
  out.push({
    type: 'text-start',
    blockId,
    ...withOpenAIResponsesMetadata({ itemId: item.wireId, phase: item.phase, refusal: refusal || undefined }),
  });
  return blockId;
}

/** Ends the text block of one content part, or of every part still open. */
export function closeTextParts(item: MessageItem, out: StreamEvent[], index?: number): void {
  for (const [partIndex, part] of item.parts) {
    if (!part.open || (index !== undefined && partIndex !== index)) continue;
    part.open = false;
    out.push({ type: 'text-end', blockId: part.blockId });
  }
}

/**
 * Opens the thinking block of a reasoning part (once), ending the previous part's block first, and
 * returns its block id. The item id rides on every block; `reasoningText` marks content parts.
 */
export function openReasoningPart(
  item: ReasoningItem,
  kind: 'summary' | 'content',
  index: number,
  out: StreamEvent[],
): string {
  const existing = item.blocks.get(`${kind}:${index}`);
  if (existing !== undefined) return existing;
  if (item.open !== undefined) out.push({ type: 'thinking-end', blockId: item.open });
  const blockId = `${item.key}:${kind}:${index}`;
  item.blocks.set(`${kind}:${index}`, blockId);
  item.open = blockId;
  out.push({
    type: 'thinking-start',
    blockId,
    ...withOpenAIResponsesMetadata({ itemId: item.wireId, reasoningText: kind === 'content' || undefined }),
  });
  return blockId;
}

/** Ends the open thinking block of an item, if any (at the end of the response). */
export function closeReasoningItem(item: ReasoningItem, out: StreamEvent[]): void {
  if (item.open === undefined) return;
  out.push({ type: 'thinking-end', blockId: item.open });
  item.open = undefined;
}

/**
 * Finishes a reasoning item at `response.output_item.done`: parts that were never streamed are
 * emitted whole from the item; the last block ends with the item's `encrypted_content` (the value
 * of this event, which is the one to replay); an item with no text at all becomes one
 * `redacted-thinking` block holding the encrypted content.
 */
export function finishReasoningItem(item: ReasoningItem, wire: OpenAIResponsesOutputItem, out: StreamEvent[]): void {
  if (item.blocks.size === 0) {
    const parts = [
      ...(wire.summary ?? []).map((part, index) => ['summary', index, part.text] as const),
      ...(wire.content ?? []).map((part, index) => ['content', index, part.text] as const),
    ];
    for (const [kind, index, text] of parts) {
      if (text === undefined || text === '') continue;
      out.push({ type: 'thinking-delta', blockId: openReasoningPart(item, kind, index, out), delta: text });
    }
  }
  const encryptedContent = wire.encrypted_content ?? undefined;
  if (item.open !== undefined) {
    out.push({ type: 'thinking-end', blockId: item.open, ...withOpenAIResponsesMetadata({ encryptedContent }) });
    item.open = undefined;
    return;
  }
  if (item.blocks.size > 0) return;
  item.blocks.set('encrypted', item.key);
  out.push({
    type: 'redacted-thinking',
    blockId: item.key,
    data: encryptedContent ?? '',
    ...withOpenAIResponsesMetadata({ itemId: item.wireId }),
  });
}
