/** Deepest nesting of objects and arrays a config file may have (the schema itself needs about 6). */
export const CONFIG_MAX_DEPTH = 64;

/**
 * The offset of the first `{` or `[` that opens level `maxDepth + 1` of JSON-with-comments text, or
 * -1 when the text stays within `maxDepth`. One pass without recursion, skipping strings and
 * comments, so text nested a million levels deep is measured without exhausting the stack.
 */
export function findTooDeepOffset(text: string, maxDepth: number): number {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === 0x22 /* " */) {
      for (index++; index < text.length; index++) {
        const inner = text.charCodeAt(index);
        if (inner === 0x5c /* \ */) index++;
        else if (inner === 0x22 || inner === 0x0a) break;
      }
    } else if (char === 0x2f /* / */ && text.charCodeAt(index + 1) === 0x2f) {
      const end = text.indexOf('\n', index);
      index = end === -1 ? text.length : end;
    } else if (char === 0x2f && text.charCodeAt(index + 1) === 0x2a /* * */) {
      const end = text.indexOf('*/', index + 2);
      index = end === -1 ? text.length : end + 1;
    } else if (char === 0x7b /* { */ || char === 0x5b /* [ */) {
      depth++;
      if (depth > maxDepth) return index;
    } else if (char === 0x7d /* } */ || char === 0x5d /* ] */) {
      depth = Math.max(0, depth - 1);
    }
  }
  return -1;
}

/**
 * The nesting depth of a JavaScript value (objects and arrays), measured without recursion and
 * stopping at `maxDepth + 1`, so a value too deep (or cyclic) to serialise is caught first.
 */
export function valueDepthExceeds(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > maxDepth || seen.has(current)) return true;
    seen.add(current);
    for (const item of Object.values(current)) stack.push([item, depth + 1]);
  }
  return false;
}
