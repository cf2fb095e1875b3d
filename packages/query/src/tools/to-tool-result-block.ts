import type { ToolResultBlock } from '@boxagnts/api';
import type { ToolResult } from '@boxagnts/tools';

/** A tool result as the `tool_result` block the model gets (text-only results become a string). */
export function toToolResultBlock(toolUseId: string, result: ToolResult): ToolResultBlock {
  const only = result.content.length === 1 ? result.content[0] : undefined;
  // The common result, one text block: its text as it is (no every, map and join per call).
  if (only?.type === 'text') {
    const block: ToolResultBlock = {
      type: 'tool_result',
      toolUseId,
      content: only.text === '' ? '(no output)' : only.text,
    };
    if (result.isError) block.isError = true;
    return block;
  }
  const textOnly = result.content.every((block) => block.type === 'text');
  const content = textOnly
    ? result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n')
    : result.content.map((block) => ({ ...block }));
  const block: ToolResultBlock = { type: 'tool_result', toolUseId, content: content === '' ? '(no output)' : content };
  if (result.isError) block.isError = true;
  return block;
}
