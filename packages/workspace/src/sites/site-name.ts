import { StoreError } from '../store/store-error.js';

/**
 * A site name is one DNS label (RFC 1123): 1-63 lowercase letters, digits and "-", neither first nor
 * last a "-". It is the site's host name (`<name>.<domain>`) and its folder name, so it can never
 * hold a dot, a slash or a character a file system or a URL would read differently.
 */
export const SITE_NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Whether `name` is a valid site name (see {@link SITE_NAME_PATTERN}). */
export function isSiteName(name: unknown): name is string {
  return typeof name === 'string' && SITE_NAME_PATTERN.test(name);
}

/** Returns `name` when it is a valid site name, else throws an `invalid-input` StoreError saying what to change. */
export function checkSiteName(name: unknown): string {
  if (isSiteName(name)) return name;
  const shown = typeof name === 'string' ? JSON.stringify(name.slice(0, 80)) : String(name);
  throw new StoreError({
    reason: 'invalid-input',
    message: `${shown} is not a site name: use 1-63 lowercase letters, digits or "-" (not first or last), e.g. "docs" or "my-report"; it becomes the host name <name>.<domain>.`,
  });
}
