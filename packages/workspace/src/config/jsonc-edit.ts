import {
  applyEdits,
  type Edit,
  type FormattingOptions,
  findNodeAtLocation,
  type JSONPath,
  type Node as JsonNode,
  modify,
  parseTree,
} from 'jsonc-parser';

// Edits of JSON-with-comments text that look hand-made: a one-line object stays on one line, a new
// property in a multi-line object gets its own line with the siblings' indentation, and comments next
// to other properties are never touched. jsonc-parser's `modify` reformats neighbouring lines and drops
// comments on removal, so it is only the fallback (array elements, odd layouts).

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false } as const;

function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return '{}';
    return `{ ${entries.map(([key, item]) => `${JSON.stringify(key)}: ${inline(item)}`).join(', ')} }`;
  }
  return JSON.stringify(value);
}

function unit(formatting: FormattingOptions): string {
  return formatting.insertSpaces === false ? '\t' : ' '.repeat(formatting.tabSize ?? 2);
}

/** Short arrays of plain values read best on one line, as people write them. */
function staysInline(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Array.isArray(value)) return Object.keys(value).length === 0;
  return value.every((item) => typeof item !== 'object' || item === null) && inline(value).length <= 60;
}

function pretty(value: unknown, indent: string, formatting: FormattingOptions): string {
  if (staysInline(value)) return inline(value);
  const eol = formatting.eol ?? '\n';
  const inner = `${indent}${unit(formatting)}`;
  const items = Array.isArray(value)
    ? value.map((item) => `${inner}${pretty(item, inner, formatting)}`)
    : Object.entries(value as object)
        .filter(([, item]) => item !== undefined)
        .map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pretty(item, inner, formatting)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}${eol}${items.join(`,${eol}`)}${eol}${indent}${close}`;
}

function render(value: unknown, indent: string, multiLine: boolean, formatting: FormattingOptions): string {
  return multiLine ? pretty(value, indent, formatting) : inline(value);
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function lineEnd(text: string, offset: number): number {
  const end = text.indexOf('\n', offset);
  return end === -1 ? text.length : end;
}

function indentOf(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset), offset))?.[0] ?? '';
}

function spansLines(text: string, node: JsonNode): boolean {
  return text.slice(node.offset, node.offset + node.length).includes('\n');
}

/** Offset just after a `,` that follows `offset` on the same line (spaces between), or undefined. */
function commaAfter(text: string, offset: number): number | undefined {
  const match = /^[ \t]*,/.exec(text.slice(offset));
  return match === null ? undefined : offset + match[0].length;
}

/** True when the rest of the line after `offset` is blank or a `//` comment. */
function restIsComment(text: string, offset: number): boolean {
  return /^[ \t]*(\/\/.*)?\r?$/.test(text.slice(offset, lineEnd(text, offset)));
}

function nestedValue(path: JSONPath, value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

function insertProperty(
  text: string,
  parent: JsonNode,
  key: string,
  value: unknown,
  formatting: FormattingOptions,
): Edit[] | undefined {
  const eol = formatting.eol ?? '\n';
  const isRoot = parent.parent === undefined;
  const multiLine = isRoot || spansLines(text, parent);
  const last = parent.children?.at(-1);
  if (last === undefined) {
    const context = parent.parent?.parent ?? parent.parent;
    const wide =
      isRoot || multiLine || (context !== undefined && (context.parent === undefined || spansLines(text, context)));
    const indent = indentOf(text, parent.offset);
    const inner = `${indent}${unit(formatting)}`;
    const content = wide
      ? `{${eol}${inner}${JSON.stringify(key)}: ${render(value, inner, true, formatting)}${eol}${indent}}`
      : inline({ [key]: value });
    return [{ offset: parent.offset, length: parent.length, content }];
  }
  const lastEnd = last.offset + last.length;
  const existingComma = commaAfter(text, lastEnd);
  if (!multiLine) {
    const property = `${JSON.stringify(key)}: ${inline(value)}`;
    return existingComma === undefined
      ? [{ offset: lastEnd, length: 0, content: `, ${property}` }]
      : [{ offset: existingComma, length: 0, content: ` ${property}` }];
  }
  const afterComma = existingComma ?? lastEnd;
  if (!restIsComment(text, afterComma)) return undefined;
  const indent = indentOf(text, last.offset);
  const property = `${eol}${indent}${JSON.stringify(key)}: ${render(value, indent, true, formatting)}`;
  const insertAt =
    text[lineEnd(text, afterComma) - 1] === '\r' ? lineEnd(text, afterComma) - 1 : lineEnd(text, afterComma);
  const edits: Edit[] = [];
  if (existingComma === undefined) edits.push({ offset: lastEnd, length: 0, content: ',' });
  edits.push({ offset: insertAt, length: 0, content: property });
  return edits;
}

function removeProperty(text: string, property: JsonNode): Edit[] | undefined {
  const parent = property.parent;
  const siblings = parent?.children ?? [];
  const index = siblings.indexOf(property);
  const end = property.offset + property.length;
  if (parent === undefined || index === -1) return undefined;
  if (!spansLines(text, parent)) {
    const next = siblings[index + 1];
    const previous = siblings[index - 1];
    if (next !== undefined) return [{ offset: property.offset, length: next.offset - property.offset, content: '' }];
    if (previous !== undefined) {
      const from = previous.offset + previous.length;
      return [{ offset: from, length: (commaAfter(text, end) ?? end) - from, content: '' }];
    }
    return [{ offset: parent.offset, length: parent.length, content: '{}' }];
  }
  const start = lineStart(text, property.offset);
  if (text.slice(start, property.offset).trim() !== '') return undefined;
  const ownComma = commaAfter(text, end);
  const afterProperty = ownComma ?? end;
  if (!restIsComment(text, afterProperty)) return undefined;
  const stop = Math.min(text.length, lineEnd(text, afterProperty) + 1);
  const edits: Edit[] = [{ offset: start, length: stop - start, content: '' }];
  const previous = siblings[index - 1];
  if (index === siblings.length - 1 && ownComma === undefined && previous !== undefined) {
    const previousEnd = previous.offset + previous.length;
    const previousComma = commaAfter(text, previousEnd);
    if (previousComma !== undefined) edits.unshift({ offset: previousComma - 1, length: 1, content: '' });
  }
  return edits;
}

function plannedEdits(text: string, path: JSONPath, value: unknown, formatting: FormattingOptions): Edit[] | undefined {
  const root = parseTree(text, [], PARSE_OPTIONS);
  if (root === undefined) return undefined;
  const node = findNodeAtLocation(root, path);
  if (value === undefined) {
    if (node === undefined) return [];
    return node.parent?.type === 'property' ? removeProperty(text, node.parent) : undefined;
  }
  if (node !== undefined) {
    const container = node.parent?.type === 'property' ? node.parent.parent : node.parent;
    const keepsShape = node.type === 'object' || node.type === 'array';
    const multiLine = keepsShape
      ? spansLines(text, node)
      : container === undefined || container.parent === undefined || spansLines(text, container);
    const indent = indentOf(text, node.parent?.offset ?? node.offset);
    return [{ offset: node.offset, length: node.length, content: render(value, indent, multiLine, formatting) }];
  }
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const ancestor = findNodeAtLocation(root, path.slice(0, depth));
    if (ancestor === undefined) continue;
    const key = path[depth];
    if (ancestor.type !== 'object' || typeof key !== 'string') return undefined;
    return insertProperty(text, ancestor, key, nestedValue(path.slice(depth + 1), value), formatting);
  }
  return undefined;
}

/**
 * Sets (or with `undefined` removes) the value at `path` in JSON-with-comments text and returns the
 * new text, changing as little as it can: comments, order, blank lines and the layout of untouched
 * entries stay as the user wrote them.
 */
export function editJsonc(text: string, path: JSONPath, value: unknown, formatting: FormattingOptions): string {
  const edits =
    plannedEdits(text, path, value, formatting) ?? modify(text, path, value, { formattingOptions: formatting });
  return applyEdits(text, edits);
}
