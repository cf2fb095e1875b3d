import type { Message } from '@boxagnts/api';

/** The searchable text of one block, or '' (tool inputs, thinking and media bytes have none). */
function blockText(block: Record<string, unknown>): string {
  const text = (...values: unknown[]) =>
    values.filter((value): value is string => typeof value === 'string' && value !== '').join('\n');
  switch (block.type) {
    case 'text':
      return text(block.text);
    case 'tool_result':
      return messageSearchText({ content: block.content as Message['content'] });
    case 'document':
      return text(block.title, block.context);
    case 'user_local_command_output':
      return text(block.command, block.output);
    case 'user_command':
      return text(typeof block.name === 'string' ? `/${block.name}` : undefined, block.args);
    case 'user_memory_input':
      return text(block.key, block.value);
    case 'system_api_error':
      return text(block.message);
    case 'collapsed_read_search':
      return text(block.toolName, ...(Array.isArray(block.paths) ? block.paths : []));
    case 'task_assignment':
      return text(block.subject, block.description);
    default:
      return '';
  }
}

/**
 * The plain text of a message that search indexes: its text blocks, tool results' text, document
 * titles and contexts, and the text fields of transcript blocks (commands and their output, memory
 * inputs, API errors, collapsed read/search paths, task subjects and descriptions). Tool inputs,
 * thinking and media bytes are left out (they are noisy or opaque).
 */
export function messageSearchText(message: Pick<Message, 'content'>): string {
  const content: unknown = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content as unknown[]) {
    if (typeof block !== 'object' || block === null) continue;
    const part = blockText(block as Record<string, unknown>);
    if (part !== '') parts.push(part);
  }
  return parts.join('\n');
}
