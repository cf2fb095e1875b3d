/** A value that survives `JSON.stringify` / `JSON.parse` unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object, the shape of tool inputs and most vendor payloads. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * A JSON Schema document (draft 2020-12 or draft-07 as the vendor accepts), kept as plain data so
 * any schema library (zod's `toJSONSchema`, TypeBox, hand-written) can produce it.
 */
export type JsonSchema = Record<string, unknown>;
