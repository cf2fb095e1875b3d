import { redactSecrets } from '@boxagnts/api';

/** A string in the config that looks like a credential. */
export interface RawSecretFinding {
  path: (string | number)[];
  /** What it looks like: a vendor key, a bearer token, a URL with a password. */
  kind: 'key' | 'url-password';
}

function hasUrlPassword(value: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return false;
  try {
    return new URL(value).password !== '';
  } catch {
    return false;
  }
}

/**
 * Walks a parsed config and returns every string that looks like a credential (a vendor key shape,
 * a `Bearer` value, a JWT, a URL with a password). Credentials belong in the secrets file or the
 * environment, referenced from the config, so each finding is reported as an error.
 */
export function findRawSecrets(value: unknown, path: (string | number)[] = []): RawSecretFinding[] {
  if (typeof value === 'string') {
    if (hasUrlPassword(value)) return [{ path, kind: 'url-password' }];
    return redactSecrets(value) === value ? [] : [{ path, kind: 'key' }];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => findRawSecrets(item, [...path, index]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => findRawSecrets(item, [...path, key]));
  }
  return [];
}
