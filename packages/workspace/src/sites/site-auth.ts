import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { StoreError } from '../store/store-error.js';

/** The secret (in the workspace secrets file) that holds a site's hashed basic-auth credentials. */
export function siteAuthSecretName(site: string): string {
  return `site-auth.${site}`;
}

const FORMAT = 'site-basic-v1';
// scrypt at N=2^14, r=8, p=1 (about 16 MiB and tens of milliseconds per check): slow enough that a
// stolen secrets file does not give the password away cheaply, fast enough for a login.
const PARAMETERS = { N: 16_384, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const MAX_PASSWORD_BYTES = 1024;

function derive(password: string, salt: Buffer, parameters: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_BYTES, { ...parameters, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error === null ? resolve(key) : reject(error),
    ),
  );
}

/** Checks a basic-auth user name: 1-128 characters, no ":" (it ends the user part of the header) and no control character. */
export function checkSiteUser(user: unknown): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (typeof user === 'string' && user.length >= 1 && user.length <= 128 && !/[:\u0000-\u001f\u007f]/.test(user))
    return user;
  throw new StoreError({
    reason: 'invalid-input',
    message: 'A site user name is 1-128 characters without ":" or control characters.',
  });
}

function checkPassword(password: unknown): string {
  if (typeof password === 'string' && password.length > 0 && Buffer.byteLength(password) <= MAX_PASSWORD_BYTES)
    return password;
  throw new StoreError({
    reason: 'invalid-input',
    message: `A site password must be 1-${MAX_PASSWORD_BYTES} bytes long.`,
  });
}

/**
 * Hashes basic-auth credentials for a site: `site-basic-v1$<user, base64url>$N$r$p$<salt>$<scrypt key>`.
 * Only this string is stored; the password cannot be read back.
 */
export async function hashSiteCredentials(user: string, password: string): Promise<string> {
  const name = checkSiteUser(user);
  const plain = checkPassword(password);
  const salt = randomBytes(16);
  const key = await derive(plain, salt, PARAMETERS);
  return [
    FORMAT,
    Buffer.from(name).toString('base64url'),
    PARAMETERS.N,
    PARAMETERS.r,
    PARAMETERS.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/** Parsed stored credentials (see {@link hashSiteCredentials}). */
export interface SiteCredentials {
  user: string;
  parameters: { N: number; r: number; p: number };
  salt: Buffer;
  key: Buffer;
}

/** Parses a stored credential string; undefined when it is not one (the site then refuses every login). */
export function parseSiteCredentials(stored: string): SiteCredentials | undefined {
  const parts = stored.split('$');
  if (parts.length !== 7 || parts[0] !== FORMAT) return undefined;
  const [, user, n, r, p, salt, key] = parts as [string, string, string, string, string, string, string];
  const parameters = { N: Number(n), r: Number(r), p: Number(p) };
  // Bounds keep a hand-edited secret from making every request cost gigabytes or minutes.
  if (
    !Number.isInteger(parameters.N) ||
    parameters.N < 2 ||
    parameters.N > 1_048_576 ||
    (parameters.N & (parameters.N - 1)) !== 0 ||
    !Number.isInteger(parameters.r) ||
    parameters.r < 1 ||
    parameters.r > 32 ||
    !Number.isInteger(parameters.p) ||
    parameters.p < 1 ||
    parameters.p > 16
  )
    return undefined;
  const keyBytes = Buffer.from(key, 'base64url');
  if (keyBytes.length !== KEY_BYTES) return undefined;
  return {
    user: Buffer.from(user, 'base64url').toString(),
    parameters,
    salt: Buffer.from(salt, 'base64url'),
    key: keyBytes,
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether `user` and `password` match stored credentials. Both the user and the key are compared in
 * constant time, and the key is always derived, so timing tells neither which part was wrong nor how much of it.
 */
export async function verifySiteCredentials(stored: SiteCredentials, user: string, password: string): Promise<boolean> {
  const userMatches = timingSafeEqual(digest(user), digest(stored.user));
  const key =
    Buffer.byteLength(password) > MAX_PASSWORD_BYTES
      ? Buffer.alloc(KEY_BYTES)
      : await derive(password, stored.salt, stored.parameters);
  const keyMatches = timingSafeEqual(key, stored.key);
  return userMatches && keyMatches;
}
