import type { ToolResult } from './tool.js';

/** A successful text result. */
export function textResult(text: string, metadata?: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text }], ...(metadata === undefined ? {} : { metadata }) };
}

/** An error result: the model reads `message` and can correct itself. */
export function errorResult(message: string, metadata?: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: message }], isError: true, ...(metadata === undefined ? {} : { metadata }) };
}

/** A result's text content joined (images left out). */
export function resultText(result: ToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}
