import type { ToolResult } from '@boxagnts/tools';

/**
 * Bounds the text of one tool result to `maxChars`: a longer result keeps its head and its tail
 * (half each) with a note between them saying how many characters were cut and how to get them.
 * Non-text blocks (images) are kept; a result within the limit is returned as it is.
 */
export function capToolResult(result: ToolResult, maxChars: number): ToolResult {
  let total = 0;
  for (const block of result.content) if (block.type === 'text') total += block.text.length;
  if (total <= maxChars) return result;
  let text = '';
  for (const block of result.content) if (block.type === 'text') text += text === '' ? block.text : `\n${block.text}`;
  const half = Math.floor(maxChars / 2);
  const cut = text.length - 2 * half;
  const note =
    `\n\n[... ${cut} characters cut from the middle: this result had ${text.length} characters and at most ` +
    `${maxChars} are kept (head and tail). Ask for a narrower part (a line range, a filter, a smaller query) to see the rest. ...]\n\n`;
  const others = result.content.filter((block) => block.type !== 'text');
  return {
    ...result,
    content: [{ type: 'text', text: `${text.slice(0, half)}${note}${text.slice(text.length - half)}` }, ...others],
    metadata: { ...result.metadata, truncated: { originalChars: text.length, keptChars: 2 * half } },
  };
}
