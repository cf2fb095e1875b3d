/**
 * Merges adapter settings layer over layer: later layers win, `undefined` values are skipped, and
 * plain-object values (`compat`, `headers`, `query`, `vertex`) are merged one level deep so a model
 * override can change one quirk without restating the others. Arrays, class instances (a
 * dispatcher) and functions are replaced whole.
 *
 * @example
 * mergeSettings({ compat: { maxTokensField: 'max_tokens' } }, { compat: { thinking: 'none' } });
 * // { compat: { maxTokensField: 'max_tokens', thinking: 'none' } }
 */
export function mergeSettings(
  ...layers: readonly (Readonly<Record<string, unknown>> | undefined)[]
): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const layer of layers) {
    if (layer === undefined) continue;
    for (const [name, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      const previous = merged[name];
      merged[name] = isPlainObject(previous) && isPlainObject(value) ? { ...previous, ...definedOnly(value) } : value;
    }
  }
  return merged;
}

function definedOnly(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
