import type { z } from 'zod';
import type { Tool } from './tool.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** A tool definition that is not usable; the message says what to change. */
export class ToolDefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolDefinitionError';
  }
}

/**
 * Declares a tool with its input type inferred from the zod schema, checking the parts every
 * provider relies on (a valid name, a description, an object schema).
 *
 * @example
 * const add = defineTool({
 *   name: 'add',
 *   description: 'Add two numbers.',
 *   inputSchema: z.object({ a: z.number(), b: z.number() }),
 *   permission: 'read-only',
 *   execute: async ({ a, b }) => textResult(String(a + b)),
 * });
 */
export function defineTool<Schema extends z.ZodType>(tool: Tool<Schema>): Tool<Schema> {
  if (!TOOL_NAME.test(tool.name)) {
    throw new ToolDefinitionError(
      `Tool name "${tool.name}" is not valid: use 1-64 letters, digits, "_" or "-" (every provider accepts those).`,
    );
  }
  if (tool.description.trim() === '') {
    throw new ToolDefinitionError(`Tool "${tool.name}" needs a description: the model chooses tools by it.`);
  }
  const type = (tool.inputSchema as { def?: { type?: string } }).def?.type;
  if (type !== undefined && type !== 'object') {
    throw new ToolDefinitionError(
      `Tool "${tool.name}" has a ${type} input schema; tool inputs must be objects (wrap it: z.object({ value: ... })).`,
    );
  }
  return tool;
}
