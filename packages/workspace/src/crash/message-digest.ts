import { createHash } from 'node:crypto';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const field = (value as Record<string, unknown>)[key];
    // A store may drop undefined fields; they are not part of what was acknowledged.
    if (field !== undefined) sorted[key] = canonical(field);
  }
  return sorted;
}

/**
 * A short digest of a value's JSON with sorted keys, so the crash child can name what it stored
 * and the parent can check the store returns exactly that, whatever key order the store keeps.
 */
export function messageDigest(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('hex')
    .slice(0, 16);
}
