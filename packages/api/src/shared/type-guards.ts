/** Small `typeof` checks for the hot paths that skip zod on common chunk shapes. */

/** A plain (non-array) object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Absent or a string. */
export function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/** Absent or a number. */
export function isOptionalNumber(value: unknown): boolean {
  return value === undefined || typeof value === 'number';
}
