import type { Message, ToolResultBlock } from '@boxagnts/api';

/** Characters of a tool result's content. */
export function toolResultChars(block: ToolResultBlock): number {
  if (typeof block.content === 'string') return block.content.length;
  let chars = 0;
  for (const part of block.content) chars += part.type === 'text' ? part.text.length : 1000;
  return chars;
}

/** Characters of every tool result in a message. */
export function messageToolResultChars(message: Message): number {
  if (message.role !== 'user' || typeof message.content === 'string') return 0;
  let chars = 0;
  for (const block of message.content) if (block.type === 'tool_result') chars += toolResultChars(block);
  return chars;
}

function toolNames(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const block of message.content) if (block.type === 'tool_use') names.set(block.id, block.name);
  }
  return names;
}

/** What {@link trimToolResults} removed. */
export interface TrimReport {
  trimmed: number;
  removedChars: number;
  /** Tool-result characters left in the history. */
  remainingChars: number;
}

const MARKER_PREFIX = '[Tool result removed to keep the context small:';

/**
 * Keeps the tool results of a history under a character budget: replaces the oldest results with a
 * one-line marker saying what was removed, never the newest tool-result message. Replaces message
 * objects in place (the blocks of stored messages are never mutated).
 */
export function trimToolResults(messages: Message[], budgetChars: number, totalChars: number): TrimReport {
  let remaining = totalChars;
  let trimmed = 0;
  let removedChars = 0;
  if (remaining <= budgetChars) return { trimmed, removedChars, remainingChars: remaining };
  let newest = -1;
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messageToolResultChars(messages[index] as Message) > 0) {
      newest = index;
      break;
    }
  }
  const names = toolNames(messages);
  for (let index = 0; index < newest && remaining > budgetChars; index++) {
    const message = messages[index] as Message;
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    let changed = false;
    const content = message.content.map((block) => {
      if (block.type !== 'tool_result' || remaining <= budgetChars) return block;
      if (typeof block.content === 'string' && block.content.startsWith(MARKER_PREFIX)) return block;
      const chars = toolResultChars(block);
      if (chars < 200) return block;
      const marker = `${MARKER_PREFIX} ${names.get(block.toolUseId) ?? 'tool'} returned ${chars} characters here. Run the tool again if you need them.]`;
      remaining -= chars - marker.length;
      removedChars += chars - marker.length;
      trimmed++;
      changed = true;
      return { ...block, content: marker };
    });
    if (changed) messages[index] = { ...message, content };
  }
  return { trimmed, removedChars, remainingChars: remaining };
}
