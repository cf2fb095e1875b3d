import type { Message, ToolResultBlock, ToolUseBlock } from '@boxagnts/api';

const SUBJECT_FIELDS = ['file_path', 'path', 'command', 'url', 'pattern', 'query', 'skill', 'description'] as const;

/** The prefix of every one-line summary, so a summarised result is never summarised again. */
export const EARLIER_RESULT_PREFIX = '[Earlier tool result from';

function subject(call: ToolUseBlock | undefined): string {
  if (call === undefined) return '';
  for (const field of SUBJECT_FIELDS) {
    const value = call.input[field];
    if (typeof value === 'string' && value !== '') return `: ${value.length > 80 ? `${value.slice(0, 77)}...` : value}`;
  }
  return '';
}

function resultSize(block: ToolResultBlock): string {
  const text =
    typeof block.content === 'string'
      ? block.content
      : block.content.map((part) => (part.type === 'text' ? part.text : '[image]')).join('\n');
  const lines = text === '' ? 0 : text.split('\n').length;
  return `${lines} ${lines === 1 ? 'line' : 'lines'}`;
}

/** One line standing for a tool result: `[Earlier tool result from read: src/main.rs, 42 lines]`. */
export function summarizeToolResult(block: ToolResultBlock, call: ToolUseBlock | undefined): string {
  const failed = block.isError ? ', failed' : '';
  return `${EARLIER_RESULT_PREFIX} ${call?.name ?? 'a tool'}${subject(call)}, ${resultSize(block)}${failed}]`;
}

/**
 * Replaces the tool results of every message before `keepFrom` with one-line summaries (the
 * first, cheap phase of compaction). Returns a new array and how many results it summarised.
 */
export function summarizeOldToolResults(
  messages: readonly Message[],
  keepFrom: number,
): { messages: Message[]; summarized: number } {
  const calls = new Map<string, ToolUseBlock>();
  let summarized = 0;
  const out = messages.map((message, index) => {
    if (message.role === 'assistant') {
      for (const block of message.content) if (block.type === 'tool_use') calls.set(block.id, block);
      return message;
    }
    if (index >= keepFrom || message.role !== 'user' || typeof message.content === 'string') return message;
    let changed = false;
    const content = message.content.map((block) => {
      if (block.type !== 'tool_result') return block;
      if (typeof block.content === 'string' && block.content.startsWith(EARLIER_RESULT_PREFIX)) return block;
      changed = true;
      summarized++;
      return { ...block, content: summarizeToolResult(block, calls.get(block.toolUseId)) };
    });
    return changed ? { ...message, content } : message;
  });
  return { messages: out, summarized };
}
