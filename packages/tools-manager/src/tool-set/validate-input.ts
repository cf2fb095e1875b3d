import { checkToolInputValue, type JsonObject } from '@boxagnts/api';
import type { AnyTool } from '@boxagnts/tools';
import type { z } from 'zod';

/** A call's input checked the way `executeTool` will check it: bounded, then parsed by the tool's schema. */
export type ValidatedInput = { ok: true; input: JsonObject; parsed: JsonObject } | { ok: false; message: string };

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 10)
    .map((issue) => `- ${issue.path.length > 0 ? issue.path.join('.') : '(input)'}: ${issue.message}`)
    .join('\n');
}

/**
 * Bounds and validates an input with the tool's `inputSchema` before hooks and permission rules
 * see it, so rules are evaluated on the input the tool will get (defaults applied). `input` is the
 * input as given (passed on to the tool), `parsed` what the schema made of it.
 */
export function validateInput(tool: AnyTool, input: unknown): ValidatedInput {
  const bounded = checkToolInputValue(input ?? {});
  if (!bounded.ok) {
    return {
      ok: false,
      message: `Invalid input for tool "${tool.name}": ${bounded.error.message}. Send a smaller input.`,
    };
  }
  const parsed = tool.inputSchema.safeParse(bounded.input);
  if (!parsed.success) {
    return {
      ok: false,
      message: `Invalid input for tool "${tool.name}":\n${describeIssues(parsed.error)}\nFix the input and call the tool again.`,
    };
  }
  const data = parsed.data;
  const object =
    typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as JsonObject) : bounded.input;
  return { ok: true, input: bounded.input, parsed: object };
}
