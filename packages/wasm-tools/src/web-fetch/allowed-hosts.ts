import { type IpRange, parseIp, parseIpRange, rangeContains } from './ip-address.js';

/** Where the allowlist syntax comes from (Spin's `allowed_outbound_hosts`). */
export const ALLOWED_HOSTS_SYNTAX_URL =
  'https://spinframework.dev/v3/http-outbound#granting-http-permissions-to-components';

/** The host part of an allowlist entry. */
export type AllowedHostPattern =
  | { kind: 'any' }
  | { kind: 'subdomain'; suffix: string }
  | { kind: 'literal'; hostname: string }
  | { kind: 'range'; range: IpRange }
  | { kind: 'self' };

/** The port part of an allowlist entry; ranges are `[start, end)` as in Spin's `8000..8100`. */
export type AllowedPortPattern =
  | { kind: 'any' }
  | { kind: 'scheme-default' }
  | { kind: 'ranges'; ranges: Array<[number, number]> };

/** One parsed allowlist entry: `<scheme>://<host>[:<port>]` with `*` wildcards (Spin's syntax). */
export interface AllowedHost {
  /** The entry as written. */
  original: string;
  /** Lower-case scheme, or `*` for any. */
  scheme: string;
  host: AllowedHostPattern;
  port: AllowedPortPattern;
}

/** An allowlist entry that cannot be parsed; the message shows the expected form. */
export class AllowedHostError extends Error {
  /** The entry as written. */
  readonly entry: string;
  constructor(entry: string, problem: string) {
    super(
      `Allowed host ${JSON.stringify(entry)} ${problem}. Write entries as <scheme>://<host>[:<port>] with "*" wildcards, e.g. "https://example.com", "https://*.example.com", "*://example.com:8080", "https://example.com:*", or "*://*:*" for every host (see ${ALLOWED_HOSTS_SYNTAX_URL}).`,
    );
    this.name = 'AllowedHostError';
    this.entry = entry;
  }
}

const WELL_KNOWN_PORTS: Record<string, number> = {
  http: 80,
  https: 443,
  postgres: 5432,
  mysql: 3306,
  redis: 6379,
  mqtt: 1883,
};

/** The default port of a scheme (`http` 80, `https` 443, and Spin's database schemes). */
export function defaultPort(scheme: string): number | undefined {
  return WELL_KNOWN_PORTS[scheme];
}

/** Host names as the WHATWG URL parser writes them (lower case, punycode, `127.1` -> `127.0.0.1`). */
function normaliseHostname(entry: string, host: string): string {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    throw new AllowedHostError(entry, `has an invalid host "${host}"`);
  }
}

function parseHost(entry: string, host: string): AllowedHostPattern {
  if (host === '*') return { kind: 'any' };
  if (host === 'self' || host === 'self.alt') return { kind: 'self' };
  if (host.startsWith('{')) throw new AllowedHostError(entry, 'uses a host list, which is not supported');
  if (host.includes('@')) throw new AllowedHostError(entry, 'contains user info ("@")');
  if (host.includes('/')) {
    const range = parseIpRange(host);
    if (range === undefined)
      throw new AllowedHostError(entry, 'has a path or an invalid CIDR range; give only scheme, host and port');
    return { kind: 'range', range };
  }
  if (host.startsWith('*.')) {
    const domain = host.slice(2);
    if (domain.includes('*') || domain === '')
      throw new AllowedHostError(entry, 'uses "*" other than as the whole host or a "*." prefix');
    return { kind: 'subdomain', suffix: `.${normaliseHostname(entry, domain)}` };
  }
  if (host.includes('*')) throw new AllowedHostError(entry, 'uses "*" other than as the whole host or a "*." prefix');
  if (host === '') throw new AllowedHostError(entry, 'has no host');
  return { kind: 'literal', hostname: normaliseHostname(entry, host) };
}

function parsePortNumber(entry: string, text: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535)
    throw new AllowedHostError(entry, `has an invalid port "${text}"`);
  return Number(text);
}

function parsePort(entry: string, text: string, scheme: string): AllowedPortPattern {
  if (text === '') {
    if (scheme === '*') return { kind: 'scheme-default' };
    const port = defaultPort(scheme);
    if (port === undefined) throw new AllowedHostError(entry, `needs a port: scheme "${scheme}" has no default port`);
    return { kind: 'ranges', ranges: [[port, port + 1]] };
  }
  if (text === '*') return { kind: 'any' };
  if (text.startsWith('{')) throw new AllowedHostError(entry, 'uses a port list, which is not supported');
  const range = text.split('..');
  if (range.length === 2) {
    return {
      kind: 'ranges',
      ranges: [[parsePortNumber(entry, range[0] ?? ''), parsePortNumber(entry, range[1] ?? '')]],
    };
  }
  const port = parsePortNumber(entry, text);
  return { kind: 'ranges', ranges: [[port, port + 1]] };
}

/** Splits `host[:port]` where the host may be a bracketed IPv6 address or a CIDR range. */
function splitHostAndPort(entry: string, rest: string): [string, string] {
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    if (close === -1) throw new AllowedHostError(entry, 'has an unclosed "[" in its host');
    const after = rest.slice(close + 1);
    const prefix = /^\/\d{1,3}/.exec(after)?.[0] ?? '';
    const remainder = after.slice(prefix.length);
    if (remainder !== '' && !remainder.startsWith(':')) throw new AllowedHostError(entry, 'has text after its host');
    return [rest.slice(0, close + 1) + prefix, remainder.slice(1)];
  }
  const colon = rest.lastIndexOf(':');
  return colon === -1 ? [rest, ''] : [rest.slice(0, colon), rest.slice(colon + 1)];
}

/**
 * Parses one allowlist entry in Spin's `allowed_outbound_hosts` syntax: `<scheme>://<host>[:<port>]`.
 * The scheme is a name or `*`; the host is a name, an IP address, a CIDR range, `*` or `*.domain`
 * (subdomains only, not `domain` itself); the port is a number, `a..b` (end excluded), `*`, or
 * absent for the scheme's default (80 for http, 443 for https; with `*://` the default port of
 * whichever scheme the URL uses). `self` entries are accepted and match no URL.
 *
 * @throws {AllowedHostError} when the entry does not follow the syntax.
 * @example
 * isUrlAllowed('https://api.example.com/v1', [parseAllowedHost('https://*.example.com')]); // true
 */
export function parseAllowedHost(entry: string): AllowedHost {
  const trimmed = entry.trim();
  const separator = trimmed.indexOf('://');
  if (separator === -1) {
    throw new AllowedHostError(
      entry,
      trimmed === '*'
        ? 'is not a valid entry; to allow every host write "*://*:*"'
        : 'has no scheme (add "https://" or "*://")',
    );
  }
  const scheme = trimmed.slice(0, separator).toLowerCase();
  if (scheme !== '*' && !/^[a-z]+$/.test(scheme))
    throw new AllowedHostError(entry, `has an invalid scheme "${scheme}"`);
  let rest = trimmed.slice(separator + 3);
  if (rest.endsWith('/')) rest = rest.replace(/\/+$/, '');
  const [host, portText] = splitHostAndPort(entry, rest);
  if (portText.includes('/')) throw new AllowedHostError(entry, 'has a path; give only scheme, host and port');
  return { original: entry, scheme, host: parseHost(entry, host), port: parsePort(entry, portText, scheme) };
}

/** Parses every entry (see {@link parseAllowedHost}); the first bad entry throws. */
export function parseAllowedHosts(entries: readonly string[]): AllowedHost[] {
  return entries.map(parseAllowedHost);
}

function hostMatches(pattern: AllowedHostPattern, hostname: string): boolean {
  switch (pattern.kind) {
    case 'any':
      return true;
    case 'self':
      return false;
    case 'literal':
      return pattern.hostname === hostname;
    case 'subdomain':
      return parseIp(hostname) === undefined && hostname.endsWith(pattern.suffix);
    case 'range': {
      const address = parseIp(hostname);
      return address !== undefined && rangeContains(pattern.range, address);
    }
  }
}

function portMatches(pattern: AllowedPortPattern, port: number, scheme: string): boolean {
  switch (pattern.kind) {
    case 'any':
      return true;
    case 'scheme-default':
      return defaultPort(scheme) === port;
    case 'ranges':
      return pattern.ranges.some(([start, end]) => port >= start && port < end);
  }
}

/**
 * Whether `url` is allowed by at least one entry: scheme, host (as the URL parser normalised it)
 * and port (explicit or the scheme's default) must all match the same entry.
 */
export function isUrlAllowed(url: URL | string, allowed: readonly AllowedHost[]): boolean {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return false;
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  const port = parsed.port === '' ? defaultPort(scheme) : Number(parsed.port);
  if (port === undefined || parsed.hostname === '') return false;
  return allowed.some(
    (entry) =>
      (entry.scheme === '*' || entry.scheme === scheme) &&
      hostMatches(entry.host, parsed.hostname) &&
      portMatches(entry.port, port, scheme),
  );
}
