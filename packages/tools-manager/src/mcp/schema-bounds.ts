/** Deepest nesting of an MCP tool's input schema that is accepted (objects and arrays, counted from the root). */
export const MAX_MCP_SCHEMA_DEPTH = 128;
/** Most values (objects, arrays and scalars together) one MCP tool's input schema may hold. */
export const MAX_MCP_SCHEMA_NODES = 100_000;

/**
 * Why a server's input schema cannot be used, or undefined when it is within bounds. Walks the
 * value without recursion, so a schema nested thousands of levels deep is measured, not a stack
 * overflow; it stops at the first bound crossed. Anything else a tool list holds (`JSON.stringify`
 * for change detection, the schema sent to the model, zod conversion) recurses, which is why a
 * schema beyond these bounds is refused before it is used.
 *
 * @example
 * schemaBoundsProblem({ type: 'object', properties: {} }); // undefined
 */
export function schemaBoundsProblem(schema: unknown): string | undefined {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: schema, depth: 1 }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    nodes += 1;
    if (nodes > MAX_MCP_SCHEMA_NODES) return `its input schema has more than ${MAX_MCP_SCHEMA_NODES} values`;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_MCP_SCHEMA_DEPTH) return `its input schema nests deeper than ${MAX_MCP_SCHEMA_DEPTH} levels`;
    const children = Array.isArray(value) ? value : Object.values(value);
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}
