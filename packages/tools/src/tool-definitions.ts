import type { JsonSchema, ToolDefinition } from '@boxagnts/api';
import { toGeminiSchema } from '@boxagnts/api/adapter-kit';
import { z } from 'zod';
import type { AnyTool } from './tool.js';

/**
 * The JSON Schema of a tool's input, as providers take it (draft 2020-12 from zod, no `$schema`),
 * or the tool's own `jsonSchema` when it carries one (MCP tools).
 */
export function toolInputJsonSchema(tool: AnyTool): JsonSchema {
  if (tool.jsonSchema !== undefined) return tool.jsonSchema;
  const schema = z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema: _ignored, ...rest } = schema;
  return rest as JsonSchema;
}

/** The definition a provider request carries (`LlmRequest.tools`). */
export function toToolDefinition(tool: AnyTool): ToolDefinition {
  return { name: tool.name, description: tool.description, inputSchema: toolInputJsonSchema(tool) };
}

/**
 * The same schema in the OpenAPI subset Gemini accepts (see `toGeminiSchema` in @boxagnts/api);
 * undefined for a tool without parameters.
 */
export function toGeminiToolSchema(tool: AnyTool): Record<string, unknown> | undefined {
  return toGeminiSchema(toolInputJsonSchema(tool));
}
