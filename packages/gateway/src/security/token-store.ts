import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { GatewayError } from '../gateway-error.js';
import { openGatewayDatabase } from '../store/gateway-database.js';

/** A token as listed: its name and dates, never the token or its hash. */
export interface TokenInfo {
  name: string;
  createdAt: number;
  revokedAt: number | undefined;
  lastUsedAt: number | undefined;
}

/** The bearer tokens of a gateway, stored as SHA-256 hashes; several at once, each revocable. */
export interface TokenStore {
  /** Makes a token and returns it: the only time it is seen (it is stored hashed). */
  create(name: string): string;
  /** Revokes a token by name; false when there is no live token of that name. */
  revoke(name: string): boolean;
  list(): TokenInfo[];
  /** The name of the live token `token` is, or undefined. */
  verify(token: string): string | undefined;
  /** Whether any token is live (config tokens included). */
  hasTokens(): boolean;
  close(): void;
}

const TOKEN_PREFIX = 'bxg_';
const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

function hash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * Opens the token table (`gateway_tokens`) in the workspace's SQLite file. `extra` are tokens from
 * the config's `gateway.tokens` (resolved from the secrets file); they are hashed in memory and
 * cannot be revoked here (remove them from the config).
 */
export function openTokenStore(path: string, extra: Readonly<Record<string, string>> = {}): TokenStore {
  const database = openGatewayDatabase(path);
  database.exec(`CREATE TABLE IF NOT EXISTS gateway_tokens (
    name TEXT NOT NULL, hash BLOB NOT NULL UNIQUE, created_at INTEGER NOT NULL,
    revoked_at INTEGER, last_used_at INTEGER)`);
  const configured = Object.entries(extra).map(([name, token]) => ({ name, hash: hash(token) }));
  const live = database.prepare<[], { name: string; hash: Buffer }>(
    'SELECT name, hash FROM gateway_tokens WHERE revoked_at IS NULL',
  );
  const touch = database.prepare('UPDATE gateway_tokens SET last_used_at = ? WHERE hash = ?');
  return {
    create(name) {
      if (!NAME.test(name)) {
        throw new GatewayError({
          reason: 'invalid-request',
          message: 'Token names must be 1-64 lowercase letters, digits, "_" or "-".',
        });
      }
      const exists = database.prepare('SELECT 1 FROM gateway_tokens WHERE name = ? AND revoked_at IS NULL').get(name);
      if (exists !== undefined) {
        throw new GatewayError({
          reason: 'conflict',
          message: `A live token "${name}" exists: revoke it first or pick another name.`,
        });
      }
      const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
      database
        .prepare('INSERT INTO gateway_tokens (name, hash, created_at) VALUES (?, ?, ?)')
        .run(name, hash(token), Date.now());
      return token;
    },
    revoke(name) {
      return (
        database
          .prepare('UPDATE gateway_tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL')
          .run(Date.now(), name).changes > 0
      );
    },
    list() {
      return database
        .prepare<[], { name: string; created_at: number; revoked_at: number | null; last_used_at: number | null }>(
          'SELECT name, created_at, revoked_at, last_used_at FROM gateway_tokens ORDER BY created_at',
        )
        .all()
        .map((row) => ({
          name: row.name,
          createdAt: row.created_at,
          revokedAt: row.revoked_at ?? undefined,
          lastUsedAt: row.last_used_at ?? undefined,
        }));
    },
    verify(token) {
      if (token.length === 0 || token.length > 512) return undefined;
      const digest = hash(token);
      // Compare every candidate in constant time, so timing says nothing about which prefix matched.
      let found: string | undefined;
      for (const candidate of [...live.all(), ...configured]) {
        if (timingSafeEqual(candidate.hash, digest)) found ??= candidate.name;
      }
      if (found !== undefined) touch.run(Date.now(), digest);
      return found;
    },
    hasTokens() {
      return configured.length > 0 || live.all().length > 0;
    },
    close() {
      if (database.open) database.close();
    },
  };
}
