const REDACTED = '[redacted]';

const SECRET_PATTERNS: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  /\bAIza[0-9A-Za-z_-]{20,}/g,
  /\b(?:xai|gsk|pplx|csk|nvapi|hf|ghp|github_pat|glpat)[-_][A-Za-z0-9_-]{16,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
];

const BEARER_PATTERN = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
const QUERY_SECRET_PATTERN =
  /([?&](?:key|api[-_]?key|access[-_]?token|token|auth|signature|sig|x-amz-signature|x-amz-credential)=)[^&#\s"']+/gi;

/**
 * Masks what looks like a credential in text meant for error messages and logs: vendor key shapes
 * (`sk-…`, `AIza…`, `xai-…`, AWS access key ids, JWTs), `Bearer` values, secret query parameters,
 * and any of `knownSecrets` verbatim (pass the key in use, so even an unusual format is caught).
 */
export function redactSecrets(text: string, knownSecrets: readonly string[] = []): string {
  let result = text;
  for (const secret of knownSecrets) {
    if (secret.length >= 4) result = result.split(secret).join(REDACTED);
  }
  for (const pattern of SECRET_PATTERNS) result = result.replace(pattern, REDACTED);
  result = result.replace(BEARER_PATTERN, (_match, scheme: string) => `${scheme} ${REDACTED}`);
  return result.replace(QUERY_SECRET_PATTERN, (_match, prefix: string) => `${prefix}${REDACTED}`);
}

/** Removes credentials from a URL (user info and secret query parameters such as Gemini's `?key=`). */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactSecrets(url);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    parsed.username = '';
    parsed.password = '';
  }
  return redactSecrets(parsed.href);
}
