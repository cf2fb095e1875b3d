import type { ImageBlock, JsonObject, JsonSchema, TextBlock } from '@boxagnts/api';
import type { z } from 'zod';
import type { ToolContext } from './tool-context.js';

/**
 * What a tool may do, from least to most dangerous. Access levels and permission rules in
 * tools-manager filter on this, never on tool names.
 */
export type ToolPermission = 'read-only' | 'write' | 'execute' | 'network';

/** Content a tool returns to the model: text and images. */
export type ToolResultContent = TextBlock | ImageBlock;

/**
 * The result of one tool call. Failure is data: `isError: true` with a message the model can read
 * and act on, never an exception in the loop.
 */
export interface ToolResult {
  content: ToolResultContent[];
  isError?: boolean;
  /** Structured data for hosts and logs (not shown to the model). */
  metadata?: Record<string, unknown>;
}

/**
 * A tool: a name, a description the model reads, a zod input schema (exported to JSON Schema for
 * every provider), a permission level, and `execute`, which gets validated input.
 *
 * @example
 * const echo = defineTool({
 *   name: 'echo',
 *   description: 'Repeat the given text.',
 *   inputSchema: z.object({ text: z.string() }),
 *   permission: 'read-only',
 *   execute: async ({ text }) => textResult(text),
 * });
 */
export interface Tool<Schema extends z.ZodType = z.ZodType> {
  /** `^[a-zA-Z0-9_-]{1,64}$`, unique within a run. */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Schema;
  readonly permission: ToolPermission;
  /**
   * May this tool run at the same time as other calls of the same turn? Default: read-only tools
   * yes, others no.
   */
  readonly concurrencySafe?: boolean;
  /** Longest a call may run, in milliseconds, before it is aborted and answered with an error. */
  readonly timeoutMs?: number;
  /** Loaded into the run only through tool-search (`select:<name>`): keeps large tool lists out of the prompt. */
  readonly deferred?: boolean;
  /** A JSON Schema to send instead of the one derived from `inputSchema` (e.g. an MCP server's own). */
  readonly jsonSchema?: JsonSchema;
  /**
   * Set by wrappers that validate the input themselves before running the tool they wrap (a tool
   * set's guarded tools): `executeTool` then passes the input through as given, so one call is
   * validated once. A plain tool leaves it unset and gets input its schema accepted.
   */
  readonly validatesOwnInput?: boolean;
  execute(input: z.output<Schema>, context: ToolContext): Promise<ToolResult>;
}

/** Any tool, whatever its schema. */
// biome-ignore lint/suspicious/noExplicitAny: a tool list holds tools of every input type
export type AnyTool = Tool<any>;

/** The untyped form of a tool input, as the model sends it. */
export type RawToolInput = JsonObject;
