import { createHash, timingSafeEqual } from 'node:crypto';
import { statSync } from 'node:fs';
import { type SiteCredentials, verifySiteCredentials, type WorkspaceSites } from '@boxagnts/workspace';
import { createRateLimiter } from '../security/rate-limiter.js';

/** How a request's `Authorization` header fared against a site's login (`limited`: too many tries, wait). */
export type SiteAuthResult = 'open' | 'allowed' | 'refused' | { limited: number };

/** Password checks (scrypt derivations) one client address may cause per minute. */
export const SITE_LOGIN_ATTEMPTS_PER_MINUTE = 30;

const MAX_REMEMBERED = 1024;

interface SiteEntry {
  credentials: Promise<SiteCredentials | 'invalid' | undefined>;
  /** Digests of headers that passed, so a browser's repeated header costs a hash, not an scrypt. */
  passed: Buffer[];
}

/**
 * Checks basic auth for the sites server. Logins are read from the workspace secrets file and cached
 * until that file changes (one `stat` per request notices `boxagnts sites auth` from another process).
 * A header that passed once is remembered by its SHA-256 digest (compared in constant time); a
 * failed one always costs a full scrypt derivation, at most {@link SITE_LOGIN_ATTEMPTS_PER_MINUTE} per
 * client address and minute (then 429 with `Retry-After`).
 */
export function createSiteCredentialsCache(
  sites: WorkspaceSites,
  secretsFile: string,
  attemptsPerMinute = SITE_LOGIN_ATTEMPTS_PER_MINUTE,
) {
  // Each check of an unknown header costs an scrypt derivation: bounded per client, against guessing and CPU exhaustion.
  const attempts = createRateLimiter(attemptsPerMinute);
  let version = '';
  let entries = new Map<string, SiteEntry>();
  const entryOf = (name: string): SiteEntry => {
    // A synchronous stat: microseconds on a local disk, no thread-pool round trip per request.
    const info = statSync(secretsFile, { throwIfNoEntry: false });
    const current = info === undefined ? 'none' : `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
    if (current !== version) {
      version = current;
      entries = new Map();
    }
    let entry = entries.get(name);
    if (entry === undefined) {
      entry = { credentials: sites.credentials(name), passed: [] };
      entry.credentials.catch(() => entries.delete(name));
      entries.set(name, entry);
    }
    return entry;
  };
  return {
    /** Whether the request may see the site. */
    async check(name: string, authorization: string | undefined, client = 'local'): Promise<SiteAuthResult> {
      const entry = entryOf(name);
      const credentials = await entry.credentials;
      if (credentials === undefined) return 'open';
      if (credentials === 'invalid' || authorization === undefined) return 'refused';
      const match = /^Basic[ \t]+([A-Za-z0-9+/=]{1,4096})[ \t]*$/i.exec(authorization);
      if (match?.[1] === undefined) return 'refused';
      const digest = createHash('sha256').update(match[1]).digest();
      if (entry.passed.some((known) => timingSafeEqual(known, digest))) return 'allowed';
      const wait = attempts.take(client);
      if (wait > 0) return { limited: wait };
      const decoded = Buffer.from(match[1], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon === -1) return 'refused';
      const ok = await verifySiteCredentials(credentials, decoded.slice(0, colon), decoded.slice(colon + 1));
      if (!ok) return 'refused';
      if (entry.passed.length >= MAX_REMEMBERED) entry.passed.shift();
      entry.passed.push(digest);
      return 'allowed';
    },
  };
}
