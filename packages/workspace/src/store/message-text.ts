import type { Message } from '@boxagnts/api';

/**
 * The plain text of a message that search indexes: its text blocks and tool results' text. Tool
 * inputs, thinking and media are left out (they are noisy or opaque).
 */
export function messageSearchText(message: Pick<Message, 'content'>): string {
  const content: unknown = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content as unknown[]) {
    if (typeof block !== 'object' || block === null) continue;
    const typed = block as { type?: unknown; text?: unknown; content?: unknown };
    if (typed.type === 'text' && typeof typed.text === 'string') parts.push(typed.text);
    if (typed.type === 'tool_result') parts.push(messageSearchText({ content: typed.content as Message['content'] }));
  }
  return parts.filter((part) => part.length > 0).join('\n');
}
