import { CliError } from './cli-error.js';

/** Path segments that name a credential: a string given there is a key, not a reference. */
const CREDENTIAL_SEGMENT = /key|token|secret|password|credential|authorization/i;

/** Shapes of well-known API keys and tokens, refused wherever they are given. */
const KEY_SHAPES = [
  /^sk-[A-Za-z0-9_-]{8,}/,
  /^sk_[A-Za-z0-9_-]{8,}/,
  /^(xai|gsk|pplx|ghp|gho|github_pat|glpat|hf|r8|fw|tgp_v1)[-_][A-Za-z0-9_-]{8,}/,
  /^AIza[A-Za-z0-9_-]{20,}/,
  /^AKIA[A-Z0-9]{12,}/,
  /^Bearer\s+\S{8,}/i,
];

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

/**
 * Refuses a `config set` that would write a secret into `boxagnts.json`: a plain string at a
 * credential field (`providers.anthropic.apiKey`), a value shaped like a well-known key, or the value
 * of a secret already stored. The message never repeats the value and says where keys go instead.
 */
export function refuseSecretValue(
  path: readonly (string | number)[],
  value: unknown,
  storedSecrets: readonly string[],
  secretsFile: string,
): void {
  const texts = strings(value);
  const atCredential = typeof value === 'string' && path.some((segment) => CREDENTIAL_SEGMENT.test(String(segment)));
  const looksLikeKey = texts.some((text) => KEY_SHAPES.some((shape) => shape.test(text.trim())));
  const isStored = texts.some((text) => text.length >= 8 && storedSecrets.includes(text));
  if (!atCredential && !looksLikeKey && !isStored) return;
  const name = String(path.find((_segment, index) => index > 0 && path[index - 1] === 'providers') ?? 'my-key');
  throw new CliError(
    `refused: that value looks like a key, and keys never go in boxagnts.json. Store it in the secrets file ${secretsFile} ` +
      `(mode 0600: { "version": 1, "secrets": { "${name}": "<key>" } }), then run: boxagnts config set ${path.join('.')} '{"secret":"${name}"}' ` +
      `(or '{"env":"<VARIABLE>"}' to read it from the environment).`,
  );
}
