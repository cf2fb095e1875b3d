/**
 * The credentials this process has sent to a provider (resolved API keys, credential headers), so
 * every `LlmError` can mask them in every field wherever it is created, even where the code that
 * builds it never saw the key (a decoder, a third-party adapter, an SDK error in a cause chain).
 * Bounded: the most recent {@link MAX_REMEMBERED_SECRETS} are kept.
 */
const remembered = new Set<string>();

/** How many distinct secrets are remembered (the oldest is forgotten first). */
export const MAX_REMEMBERED_SECRETS = 256;

/** Shorter values are not remembered: masking them would mangle ordinary words in error bodies. */
export const MIN_REMEMBERED_SECRET_LENGTH = 8;

const CREDENTIAL_HEADER =
  /^(?:authorization|proxy-authorization|x-api-key|api-key|x-goog-api-key|cookie)$|token|secret|api[-_]?key|password/i;
const AUTH_SCHEME = /^(?:Bearer|Basic|Token)\s+/i;

/** Remembers one credential (trimmed; values under the minimum length are ignored). */
export function rememberSecret(value: string | undefined): void {
  if (typeof value !== 'string') return;
  const secret = value.trim();
  if (secret.length < MIN_REMEMBERED_SECRET_LENGTH) return;
  if (remembered.has(secret)) {
    remembered.delete(secret);
  } else if (remembered.size >= MAX_REMEMBERED_SECRETS) {
    const oldest = remembered.values().next().value;
    if (oldest !== undefined) remembered.delete(oldest);
  }
  remembered.add(secret);
}

/** Remembers the values of credential headers (`authorization` without its scheme, `x-api-key`, `*token*`, ...). */
export function rememberHeaderSecrets(headers: Iterable<[string, string]> | Record<string, string | undefined>): void {
  const entries: Iterable<[string, string | undefined]> =
    Symbol.iterator in headers ? (headers as Iterable<[string, string]>) : Object.entries(headers);
  for (const [name, value] of entries) {
    if (typeof value !== 'string' || !CREDENTIAL_HEADER.test(name)) continue;
    rememberSecret(value);
    const bare = value.replace(AUTH_SCHEME, '');
    if (bare !== value) rememberSecret(bare);
  }
}

/** The remembered secrets, longest first (so a key is masked before any shorter one inside it). */
export function rememberedSecrets(): string[] {
  return [...remembered].sort((a, b) => b.length - a.length);
}
