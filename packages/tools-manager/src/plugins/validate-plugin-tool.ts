const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const PERMISSIONS = new Set(['read-only', 'write', 'execute', 'network']);

function schemaProblem(schema: unknown): string | undefined {
  if (
    typeof schema !== 'object' ||
    schema === null ||
    typeof (schema as { safeParse?: unknown }).safeParse !== 'function'
  ) {
    return 'inputSchema must be a zod schema, e.g. z.object({ text: z.string() })';
  }
  const internals = (schema as { _zod?: { def?: { type?: unknown } } })._zod;
  if (internals === undefined) {
    return 'inputSchema looks like a zod 3 schema; use zod 4 (import { z } from "zod" with zod >= 4)';
  }
  const type = internals.def?.type;
  if (type !== undefined && type !== 'object') {
    return `inputSchema is a ${String(type)} schema; tool inputs must be objects (wrap it: z.object({ value: ... }))`;
  }
  return undefined;
}

/**
 * What is wrong with a value a plugin registered as a tool, one sentence per problem; empty when it
 * is a usable tool. Checked by shape, not `instanceof`, because a plugin may bring its own copies
 * of zod and @boxagnts/tools.
 */
export function describeToolProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) {
    return [`a tool must be an object (defineTool({ ... })), got ${value === null ? 'null' : typeof value}`];
  }
  const tool = value as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
    problems.push('name must be 1-64 letters, digits, "_" or "-"');
  }
  if (typeof tool.description !== 'string' || tool.description.trim() === '') {
    problems.push('description must be a non-empty string (the model chooses tools by it)');
  }
  const schema = schemaProblem(tool.inputSchema);
  if (schema !== undefined) problems.push(schema);
  if (typeof tool.permission !== 'string' || !PERMISSIONS.has(tool.permission)) {
    problems.push(
      `permission must be one of ${[...PERMISSIONS].join(', ')} (got ${JSON.stringify(tool.permission) ?? 'nothing'})`,
    );
  }
  if (typeof tool.execute !== 'function')
    problems.push('execute must be a function (input, context) => Promise<ToolResult>');
  if (
    tool.timeoutMs !== undefined &&
    !(typeof tool.timeoutMs === 'number' && tool.timeoutMs > 0 && Number.isFinite(tool.timeoutMs))
  ) {
    problems.push('timeoutMs, when given, must be a positive number of milliseconds');
  }
  for (const flag of ['concurrencySafe', 'deferred'] as const) {
    if (tool[flag] !== undefined && typeof tool[flag] !== 'boolean')
      problems.push(`${flag}, when given, must be true or false`);
  }
  return problems;
}

/** A tool's name for messages, even when the value is not a tool. */
export function describeToolName(value: unknown): string {
  const name = typeof value === 'object' && value !== null ? (value as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name !== '' ? name : '(unnamed)';
}
