import type { AnyTool, ToolContext, ToolPermission, ToolResult } from '@boxagnts/tools';
import { defineTool } from '@boxagnts/tools';
import { z } from 'zod';

/** What the runtime knows about a component's tool. */
export interface RuntimeToolSpec {
  name: string;
  description: string;
  /** The component's own JSON Schema, sent to the model as is. */
  jsonSchema: Record<string, unknown>;
  permission: ToolPermission;
  timeoutMs: number;
  execute(input: Record<string, unknown>, context: ToolContext): Promise<ToolResult>;
}

/**
 * A Tool backed by a component. The zod schema only demands an object (the component validates
 * its own input against its schema); the model sees the component's JSON Schema.
 */
export function createRuntimeTool(spec: RuntimeToolSpec): AnyTool {
  return defineTool({
    name: spec.name,
    description: spec.description,
    inputSchema: z.looseObject({}),
    jsonSchema: spec.jsonSchema,
    permission: spec.permission,
    timeoutMs: spec.timeoutMs,
    execute: (input, context) => spec.execute(input as Record<string, unknown>, context),
  });
}
