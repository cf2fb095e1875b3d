/** Tests a URL string against a `domain:` pattern. */
export type DomainMatcher = (url: string) => boolean;

/** Schemes an allow rule's `domain:` pattern accepts; deny and ask rules accept any scheme. */
const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:']);

/**
 * Checks and normalises the host of a `domain:` pattern (`example.com`, `*.example.com`): lower
 * case, no trailing dot, international names in their ASCII form. Returns undefined when it is not
 * a bare host name.
 */
export function normalizeDomain(domain: string): { host: string; subdomains: boolean } | undefined {
  let text = domain.trim().toLowerCase();
  const subdomains = text.startsWith('*.');
  if (subdomains) text = text.slice(2);
  if (text === '' || /[\s/\\:@?#*%]/.test(text.replace(/^\[[0-9a-f:.]+\]$/, '[]'))) return undefined;
  let host: string;
  try {
    host = new URL(`http://${text}`).hostname;
  } catch {
    return undefined;
  }
  host = stripTrailingDot(host);
  if (host === '') return undefined;
  return { host, subdomains };
}

/**
 * Compiles a `domain:` pattern: the URL's host (lower case, trailing dot stripped) must equal the
 * host, or for `*.example.com` be a subdomain of it (the apex only when written as well). `strict`
 * matchers (allow rules) need a valid http(s)/ws(s) URL; broad ones (deny and ask) accept any
 * scheme and also read a bare `host/path` as `https://host/path`.
 *
 * @example
 * compileDomainPattern('docs.example.com', 'strict')('https://docs.example.com@evil.com/'); // false
 */
export function compileDomainPattern(domain: string, strength: 'strict' | 'broad'): DomainMatcher {
  const normalized = normalizeDomain(domain);
  if (normalized === undefined) return () => false;
  const { host, subdomains } = normalized;
  return (url) => {
    const actual = hostOf(url, strength);
    if (actual === undefined) return false;
    return subdomains ? actual.endsWith(`.${host}`) : actual === host;
  };
}

function hostOf(url: string, strength: 'strict' | 'broad'): string | undefined {
  const parsed = parseUrl(url);
  if (parsed !== undefined && parsed.hostname !== '') {
    if (strength === 'strict' && !ALLOWED_SCHEMES.has(parsed.protocol)) return undefined;
    return stripTrailingDot(parsed.hostname.toLowerCase());
  }
  if (strength === 'strict') return undefined;
  const guessed = parseUrl(`https://${url.trim().replace(/^\/+/, '')}`);
  return guessed === undefined || guessed.hostname === ''
    ? undefined
    : stripTrailingDot(guessed.hostname.toLowerCase());
}

function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

function stripTrailingDot(host: string): string {
  return host.replace(/\.+$/, '');
}
