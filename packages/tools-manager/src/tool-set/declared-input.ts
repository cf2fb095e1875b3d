import type { JsonObject, JsonValue } from '@boxagnts/api';
import type { AnyTool } from '@boxagnts/tools';

/** The input keys a tool declares, or `undefined` when any key is declared (nothing to strip). */
export type DeclaredKeys = ReadonlySet<string> | undefined;

const COMBINATORS = ['allOf', 'anyOf', 'oneOf'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The keys a tool's declared JSON Schema (`jsonSchema`, e.g. an MCP server's or a component's own
 * schema) names under `properties` (also one level into `allOf`/`anyOf`/`oneOf`). `undefined` when
 * the tool has no JSON Schema of its own (its zod schema already strips what it does not declare)
 * or the schema admits other keys explicitly (`additionalProperties` or `patternProperties`), or
 * names no key at all without `additionalProperties: false` (a free-form schema).
 */
export function declaredKeys(tool: Pick<AnyTool, 'jsonSchema'>): DeclaredKeys {
  const schema: unknown = tool.jsonSchema;
  if (isObject(schema) && cache.has(schema)) return cache.get(schema);
  const keys = keysOf(schema);
  if (isObject(schema)) cache.set(schema, keys);
  return keys;
}

const cache = new WeakMap<object, DeclaredKeys>();

function keysOf(schema: unknown): DeclaredKeys {
  if (!isObject(schema)) return undefined;
  const keys = new Set<string>();
  const parts = [schema];
  for (const combinator of COMBINATORS) {
    const list = schema[combinator];
    if (Array.isArray(list)) parts.push(...list.filter(isObject));
  }
  for (const part of parts) {
    const extra = part.additionalProperties;
    if (extra === true || isObject(extra) || isObject(part.patternProperties)) return undefined;
    if (isObject(part.properties)) for (const key of Object.keys(part.properties)) keys.add(key);
  }
  // A schema that names no key at all and does not forbid others is free-form (some servers list
  // `{"type":"object"}` and take anything): keep every key; the rules then read each of them.
  if (keys.size === 0 && schema.additionalProperties !== false) return undefined;
  return keys;
}

/**
 * The input with every key the tool does not declare removed, so what the permission rules see
 * is exactly what the tool gets: a model cannot add a field a rule reads (`command`) next to the
 * one the tool acts on (`path`). Returns the same object when nothing was removed.
 */
export function stripUndeclared(input: JsonObject, keys: DeclaredKeys): JsonObject {
  if (keys === undefined) return input;
  const names = Object.keys(input);
  if (names.every((name) => keys.has(name))) return input;
  const kept: JsonObject = {};
  for (const name of names) if (keys.has(name)) kept[name] = input[name] as JsonValue;
  return kept;
}
