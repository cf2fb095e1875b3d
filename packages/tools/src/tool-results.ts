import type { ToolResult } from './tool.js';

/** A successful text result. */
export function textResult(text: string, metadata?: Record<string, unknown>): ToolResult {
  // Two literal shapes rather than a conditional spread: every tool call makes one of these.
  const content: ToolResult['content'] = [{ type: 'text', text }];
  return metadata === undefined ? { content } : { content, metadata };
}

/** An error result: the model reads `message` and can correct itself. */
export function errorResult(message: string, metadata?: Record<string, unknown>): ToolResult {
  const content: ToolResult['content'] = [{ type: 'text', text: message }];
  return metadata === undefined ? { content, isError: true } : { content, isError: true, metadata };
}

/** A result's text content joined (images left out). */
export function resultText(result: ToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}
