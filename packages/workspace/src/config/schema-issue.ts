import { distance } from 'fastest-levenshtein';
import type { z } from 'zod';
import { ConfigError } from './config-error.js';
import { formatFieldPath } from './env-substitution.js';
import { locateField } from './jsonc-document.js';

type SchemaNode = { _zod: { def: Record<string, unknown> & { type: string } } };

function childSchemas(schema: SchemaNode, segment: PropertyKey): SchemaNode[] {
  const def = schema._zod.def;
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'nullable':
    case 'readonly':
      return childSchemas(def.innerType as SchemaNode, segment);
    case 'pipe':
      return childSchemas(def.out as SchemaNode, segment);
    case 'object': {
      const child = (def.shape as Record<string, SchemaNode>)[String(segment)];
      return child === undefined ? [] : [child];
    }
    case 'record':
      return [def.valueType as SchemaNode];
    case 'array':
      return [def.element as SchemaNode];
    case 'union':
      return (def.options as SchemaNode[]).flatMap((option) => childSchemas(option, segment));
    default:
      return [];
  }
}

function objectKeys(schema: SchemaNode): string[] {
  const def = schema._zod.def;
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'nullable':
    case 'readonly':
      return objectKeys(def.innerType as SchemaNode);
    case 'pipe':
      return objectKeys(def.out as SchemaNode);
    case 'object':
      return Object.keys(def.shape as object);
    case 'union':
      return (def.options as SchemaNode[]).flatMap(objectKeys);
    default:
      return [];
  }
}

/** The keys a strict object at `path` of `schema` accepts (zod's own schema tree, walked). */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let nodes: SchemaNode[] = [schema as unknown as SchemaNode];
  for (const segment of path) nodes = nodes.flatMap((node) => childSchemas(node, segment));
  return [...new Set(nodes.flatMap(objectKeys))];
}

/** The known key closest to an unknown one, when it is close enough to be a typo. */
export function closestKey(unknown: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const apart =
      candidate.toLowerCase() === unknown.toLowerCase() ? 0 : distance(unknown.toLowerCase(), candidate.toLowerCase());
    if (apart < bestDistance) {
      best = candidate;
      bestDistance = apart;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(unknown.length / 3)) ? best : undefined;
}

function issueDetail(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_key') {
    const inner = issue.issues[0]?.message ?? 'is not a valid name';
    return `${inner}.`;
  }
  return `${issue.message.replace(/^Invalid input: /, '')}.`;
}

/**
 * Turns the first schema issue into a {@link ConfigError} that names the field, its position in the
 * file and what to change; an unknown key gets a "did you mean" hint and the list of allowed keys.
 */
export function schemaIssueToError(
  issue: z.core.$ZodIssue,
  schema: z.ZodType,
  text: string,
  file: string,
): ConfigError {
  const path = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const known = knownKeysAt(schema, path);
    const suggestion = closestKey(key, known);
    const hint = suggestion === undefined ? '' : ` Did you mean "${suggestion}"?`;
    const allowed = known.length === 0 ? '' : ` Allowed keys here: ${known.join(', ')}.`;
    return new ConfigError({
      reason: 'schema',
      file,
      field: formatFieldPath([...path, key]),
      ...locateField(text, path, key),
      detail: `unknown key "${key}".${hint}${allowed}`,
    });
  }
  const field = formatFieldPath(path);
  return new ConfigError({
    reason: 'schema',
    file,
    field: field === '' ? '(top level)' : field,
    ...locateField(
      text,
      issue.code === 'invalid_key' ? path.slice(0, -1) : path,
      issue.code === 'invalid_key' ? String(path.at(-1)) : undefined,
    ),
    detail: issueDetail(issue),
  });
}
