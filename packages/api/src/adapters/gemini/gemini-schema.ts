import type { JsonSchema } from '../../spec/json-value.js';

/**
 * Converts a JSON Schema (draft-07 / 2020-12, as zod's `toJSONSchema` writes it) into the OpenAPI
 * 3.0 subset Gemini's `FunctionDeclaration.parameters` accepts. Gemini rejects unknown keywords, so
 * this keeps only the fields of its `Schema` object and rewrites what it cannot express:
 *
 * - `$ref` into `$defs` / `definitions` is inlined (a recursive reference becomes a bare
 *   `{type: OBJECT}` with its description at the second visit); `$schema`, `$id`, `$defs`,
 *   `additionalProperties`, `patternProperties`, `not`, `if/then/else`, `const`-less keywords such as
 *   `multipleOf`, `uniqueItems` and `contains` are dropped;
 * - `type: ["string", "null"]` becomes `type: STRING, nullable: true`; several non-null types become
 *   `anyOf`; an `anyOf`/`oneOf` member `{type: "null"}` becomes `nullable`, and a single remaining
 *   member is flattened;
 * - `const: x` becomes `enum: [x]`; enums of strings are kept, enums of other values (which Gemini's
 *   string-only `enum` cannot hold) are moved into the description;
 * - `allOf` is merged (properties, required, other keywords of the first member);
 * - `exclusiveMinimum` / `exclusiveMaximum` (numbers, draft 2020-12) become `minimum` / `maximum`
 *   (the bound is then inclusive: close enough for a model's guidance);
 * - `format` is kept only where Gemini supports it (`enum`, `date-time` for strings; `float`,
 *   `double`, `int32`, `int64` for numbers); `examples[0]` becomes `example`;
 * - types are written upper case (`STRING`, `OBJECT`, …) as the `Type` enum spells them;
 * - `required` lists only properties that exist.
 *
 * Returns `undefined` for an object schema with no properties, which is how Gemini wants a function
 * without parameters declared.
 *
 * @see https://ai.google.dev/api/caching#Schema
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Schema
 */
export function toGeminiSchema(schema: JsonSchema): Record<string, unknown> | undefined {
  const definitions = { ...asRecord(schema.definitions), ...asRecord(schema.$defs) };
  const converted = convert(schema, { definitions, visiting: new Set() });
  const properties = asRecord(converted.properties);
  if (converted.type === 'OBJECT' && Object.keys(properties).length === 0 && converted.anyOf === undefined) {
    return undefined;
  }
  return converted;
}

interface Context {
  definitions: Record<string, unknown>;
  /** `$ref`s being expanded on the current path, to stop recursion. */
  visiting: Set<string>;
}

const STRING_FORMATS = new Set(['enum', 'date-time']);
const NUMBER_FORMATS = new Set(['float', 'double']);
const INTEGER_FORMATS = new Set(['int32', 'int64']);
const COPIED_KEYWORDS = ['title', 'description', 'default', 'pattern', 'minimum', 'maximum'] as const;
const COUNT_KEYWORDS = ['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties'] as const;

function convert(input: unknown, context: Context): Record<string, unknown> {
  if (input === true || input === undefined) return {};
  if (input === false || typeof input !== 'object' || input === null || Array.isArray(input)) return {};
  const schema = input as Record<string, unknown>;

  if (typeof schema.$ref === 'string') return convertReference(schema, context);
  if (Array.isArray(schema.allOf)) return convert(mergeAllOf(schema), context);

  const output: Record<string, unknown> = {};
  copyAnnotations(schema, output);

  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union !== undefined) return convertUnion(union, output, context);

  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (type): type is string => typeof type === 'string',
  );
  const nonNull = types.filter((type) => type !== 'null');
  if (types.includes('null')) output.nullable = true;
  if (nonNull.length > 1) {
    output.anyOf = nonNull.map((type) => convert({ ...schema, type, description: undefined }, context));
    return output;
  }
  const type = nonNull[0] ?? inferType(schema);
  if (type !== undefined) output.type = type.toUpperCase();

  copyEnum(schema, output);
  copyFormat(schema, output);
  if (type === 'object' || schema.properties !== undefined) convertObject(schema, output, context);
  if (type === 'array' || schema.items !== undefined || schema.prefixItems !== undefined) {
    const items = convertItems(schema, context);
    if (items !== undefined) output.items = items;
  }
  return output;
}

function convertReference(schema: Record<string, unknown>, context: Context): Record<string, unknown> {
  const reference = schema.$ref as string;
  const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(reference)?.[1];
  const target = name === undefined ? undefined : context.definitions[decodeURIComponent(name)];
  const description = typeof schema.description === 'string' ? { description: schema.description } : {};
  if (target === undefined || context.visiting.has(reference)) return { type: 'OBJECT', ...description };
  context.visiting.add(reference);
  const converted = convert(target, context);
  context.visiting.delete(reference);
  return { ...converted, ...description };
}

function convertUnion(members: unknown[], output: Record<string, unknown>, context: Context): Record<string, unknown> {
  const isNull = (member: unknown) => asRecord(member).type === 'null';
  if (members.some(isNull)) output.nullable = true;
  const rest = members.filter((member) => !isNull(member)).map((member) => convert(member, context));
  if (rest.length === 1) {
    return { ...rest[0], ...output };
  }
  if (rest.length > 1) output.anyOf = rest;
  return output;
}

function convertObject(schema: Record<string, unknown>, output: Record<string, unknown>, context: Context): void {
  const properties = asRecord(schema.properties);
  const names = Object.keys(properties);
  if (names.length === 0) return;
  output.properties = Object.fromEntries(names.map((name) => [name, convert(properties[name], context)]));
  if (Array.isArray(schema.required)) {
    const required = schema.required.filter((name): name is string => typeof name === 'string' && names.includes(name));
    if (required.length > 0) output.required = required;
  }
}

function convertItems(schema: Record<string, unknown>, context: Context): Record<string, unknown> | undefined {
  const tuple = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : [];
  if (tuple.length > 0) {
    const members = tuple.map((member) => convert(member, context));
    return members.length === 1 ? members[0] : { anyOf: members };
  }
  if (schema.items !== undefined && !Array.isArray(schema.items)) return convert(schema.items, context);
  return undefined;
}

function copyAnnotations(schema: Record<string, unknown>, output: Record<string, unknown>): void {
  for (const keyword of COPIED_KEYWORDS) {
    if (schema[keyword] !== undefined) output[keyword] = schema[keyword];
  }
  for (const keyword of COUNT_KEYWORDS) {
    if (typeof schema[keyword] === 'number') output[keyword] = schema[keyword];
  }
  if (typeof schema.exclusiveMinimum === 'number' && output.minimum === undefined) {
    output.minimum = schema.exclusiveMinimum;
  }
  if (typeof schema.exclusiveMaximum === 'number' && output.maximum === undefined) {
    output.maximum = schema.exclusiveMaximum;
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) output.example = schema.examples[0];
  else if (schema.example !== undefined) output.example = schema.example;
}

function copyEnum(schema: Record<string, unknown>, output: Record<string, unknown>): void {
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  if (values === undefined) return;
  if (values.includes(null)) output.nullable = true;
  const present = values.filter((value) => value !== null);
  if (present.length > 0 && present.every((value) => typeof value === 'string')) {
    output.enum = present;
    if (output.type === undefined) output.type = 'STRING';
    return;
  }
  if (present.length === 0) return;
  const listed = present.map((value) => JSON.stringify(value)).join(', ');
  const description = typeof output.description === 'string' ? `${output.description} ` : '';
  output.description = `${description}(one of: ${listed})`;
}

function copyFormat(schema: Record<string, unknown>, output: Record<string, unknown>): void {
  if (typeof schema.format !== 'string') return;
  const allowed =
    output.type === 'STRING'
      ? STRING_FORMATS
      : output.type === 'NUMBER'
        ? NUMBER_FORMATS
        : output.type === 'INTEGER'
          ? INTEGER_FORMATS
          : undefined;
  if (allowed?.has(schema.format) === true) output.format = schema.format;
}

function inferType(schema: Record<string, unknown>): string | undefined {
  if (schema.properties !== undefined) return 'object';
  if (schema.items !== undefined || schema.prefixItems !== undefined) return 'array';
  return undefined;
}

function mergeAllOf(schema: Record<string, unknown>): Record<string, unknown> {
  const members = (schema.allOf as unknown[]).map(asRecord);
  const { allOf: _allOf, ...rest } = schema;
  const merged: Record<string, unknown> = { ...members[0], ...rest };
  const properties: Record<string, unknown> = {};
  const required: unknown[] = [];
  for (const member of [...members, rest]) {
    Object.assign(properties, asRecord(member.properties));
    if (Array.isArray(member.required)) required.push(...member.required);
  }
  if (Object.keys(properties).length > 0) {
    merged.properties = properties;
    merged.type ??= 'object';
  }
  if (required.length > 0) merged.required = [...new Set(required)];
  return merged;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
