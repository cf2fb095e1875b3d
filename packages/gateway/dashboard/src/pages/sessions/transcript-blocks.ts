import type { ContentBlockJson, StoredMessageJson } from '../../../../src/http/api-types/index.js';

export type ToolUse = { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };
export type ToolResult = Extract<ContentBlockJson, { type: 'tool_result' }>;

/** The blocks of a message (a plain string is one text block). */
export function blocksOf(entry: StoredMessageJson): ContentBlockJson[] {
  const content = entry.message.content;
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

export function isToolUse(block: ContentBlockJson): block is ToolUse {
  return block.type === 'tool_use' && typeof (block as ToolUse).id === 'string';
}

export function isToolResult(block: ContentBlockJson): block is ToolResult {
  return block.type === 'tool_result' && typeof (block as ToolResult).toolUseId === 'string';
}

/** Every tool result of the transcript by the id of the call it answers (shown inside that call's card). */
export function resultsByCall(messages: readonly StoredMessageJson[]): Map<string, ToolResult> {
  const results = new Map<string, ToolResult>();
  for (const entry of messages)
    for (const block of blocksOf(entry)) if (isToolResult(block)) results.set(block.toolUseId, block);
  return results;
}

/** A tool result's text (images are named, not inlined). */
export function resultText(result: ToolResult): string {
  if (typeof result.content === 'string') return result.content;
  return result.content.map((part) => (part.type === 'text' ? part.text : '[image]')).join('\n');
}

/** True when a message holds only tool results (they are shown in the calls' cards instead). */
export function onlyToolResults(entry: StoredMessageJson): boolean {
  const blocks = blocksOf(entry);
  return blocks.length > 0 && blocks.every(isToolResult);
}
