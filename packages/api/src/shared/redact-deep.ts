import { redactSecrets } from './redact-secrets.js';

/** Nesting deeper than this is cut (`[truncated]`): errors are printed, never walked without end. */
export const MAX_REDACT_DEPTH = 32;

const CREDENTIAL_KEY =
  /^(?:authorization|proxy-authorization|x-api-key|api-key|x-goog-api-key|cookie|set-cookie|x-amz-security-token|api_?key|apikey|access_?token|secret_?access_?key|password)$/i;

/**
 * A copy of `value` with every secret masked in every string (object keys included): the `secrets`
 * given verbatim and every credential shape {@link redactSecrets} knows. Values of credential fields
 * (`authorization`, `x-api-key`, `apiKey`, ...) are replaced whole. Errors become plain `Error`s
 * with the same name, masked message, stack, own fields and cause chain; `Headers`, `Map`s and other
 * class instances become plain objects of their entries. Cycles and depth are bounded.
 */
export function redactDeep(value: unknown, secrets: readonly string[] = []): unknown {
  // Nothing to mask: the value itself comes back, so identities (an abort reason, a cause) hold.
  if (!needsRedaction(value, secrets, 0, new Set())) return value;
  return walk(value, secrets, 0, new WeakMap());
}

function needsRedaction(value: unknown, secrets: readonly string[], depth: number, seen: Set<object>): boolean {
  if (typeof value === 'string') return redactSecrets(value, secrets) !== value;
  if (typeof value !== 'object' || value === null || seen.has(value)) return false;
  if (depth >= MAX_REDACT_DEPTH) return true;
  seen.add(value);
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return false;
  if (value instanceof Error) {
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key === 'string' && CREDENTIAL_KEY.test(key)) return true;
      if (needsRedaction(Reflect.get(value, key), secrets, depth + 1, seen)) return true;
    }
    return false;
  }
  const entries = Array.isArray(value)
    ? value.map((item, index): [string, unknown] => [String(index), item])
    : entriesOf(value);
  for (const [key, item] of entries) {
    if (redactSecrets(key, secrets) !== key) return true;
    if (CREDENTIAL_KEY.test(key) && item !== undefined && item !== null) return true;
    if (needsRedaction(item, secrets, depth + 1, seen)) return true;
  }
  return false;
}

function walk(value: unknown, secrets: readonly string[], depth: number, seen: WeakMap<object, unknown>): unknown {
  if (typeof value === 'string') return redactSecrets(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (depth >= MAX_REDACT_DEPTH) return '[truncated]';
  if (value instanceof Error) return walkError(value, secrets, depth, seen);
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(walk(item, secrets, depth + 1, seen));
    return copy;
  }
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
    return `[${value.byteLength} bytes]`;
  }
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  const entries = entriesOf(value);
  for (const [key, item] of entries) {
    const name = redactSecrets(key, secrets);
    copy[name] =
      CREDENTIAL_KEY.test(key) && item !== undefined && item !== null
        ? '[redacted]'
        : walk(item, secrets, depth + 1, seen);
  }
  return copy;
}

function entriesOf(value: object): Array<[string, unknown]> {
  if (value instanceof Map) return [...value.entries()].map(([key, item]) => [String(key), item]);
  if (typeof Headers !== 'undefined' && value instanceof Headers) return [...value.entries()];
  return Object.entries(value);
}

function walkError(error: Error, secrets: readonly string[], depth: number, seen: WeakMap<object, unknown>): Error {
  // Same prototype and own properties (symbol markers included), so guards and `instanceof` still hold.
  const copy = Object.create(Object.getPrototypeOf(error)) as Error;
  seen.set(error, copy);
  for (const key of Reflect.ownKeys(error)) {
    const descriptor = Object.getOwnPropertyDescriptor(error, key);
    if (descriptor === undefined) continue;
    if ('value' in descriptor) {
      const item: unknown = descriptor.value;
      descriptor.value =
        typeof key === 'string' && CREDENTIAL_KEY.test(key) && item !== undefined && item !== null
          ? '[redacted]'
          : walk(item, secrets, depth + 1, seen);
    } else {
      // An accessor could compute anything: keep what it returns now, masked, as a plain value.
      const item: unknown = Reflect.get(error, key);
      Object.defineProperty(copy, key, {
        value: walk(item, secrets, depth + 1, seen),
        enumerable: descriptor.enumerable,
        configurable: true,
        writable: true,
      });
      continue;
    }
    Object.defineProperty(copy, key, descriptor);
  }
  return copy;
}
