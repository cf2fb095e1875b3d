import type { JsonSchema } from './json-value.js';

/** A tool as the model sees it: a name, what it does, and a JSON Schema for its input. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/**
 * Whether and which tool the model must call: `auto` (its choice), `none`, `required` (any tool),
 * or one named tool.
 */
export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'tool'; name: string };
