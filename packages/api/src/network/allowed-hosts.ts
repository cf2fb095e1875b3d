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
  /** The canonical spelling (`wttr.in` -> `*://wttr.in`, `HTTPS://Wttr.In/` -> `https://wttr.in`). */
  normalised: string;
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
      `Allowed host ${JSON.stringify(entry)} ${problem}. Write a host ("example.com": http and https on their default ports), a host and port ("example.com:8080"), subdomains ("*.example.com"), or <scheme>://<host>[:<port>] with "*" wildcards, e.g. "https://example.com", "*://example.com:8080", "https://example.com:*", or "*://*:*" for every host (see ${ALLOWED_HOSTS_SYNTAX_URL}).`,
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

/** The host as the canonical spelling writes it. */
function formatHost(pattern: AllowedHostPattern, written: string): string {
  switch (pattern.kind) {
    case 'any':
      return '*';
    case 'self':
      return written.toLowerCase();
    case 'literal':
      return pattern.hostname;
    case 'subdomain':
      return `*${pattern.suffix}`;
    case 'range':
      return written.toLowerCase();
  }
}

/**
 * Parses one allowlist entry. One format for every place that takes an allowlist (the workspace
 * config's `network.allowedHosts`, `web_fetch`, the shell's `curl`, component HTTP):
 * - a bare host, `example.com`: http and https on their default ports (80, 443);
 * - a host and port, `example.com:8080` (`[::1]:8080` for IPv6): http and https on that port;
 * - wildcard subdomains, `*.example.com`: every subdomain, not `example.com` itself;
 * - Spin's `allowed_outbound_hosts` syntax, `<scheme>://<host>[:<port>]`, as BoxAgnts writes it
 *   (`https://wttr.in`; a trailing `/` and upper case are normalised). The scheme is a name or
 *   `*`; the host is a name, an IP address, a CIDR range, `*` or `*.domain`; the port is a number,
 *   `a..b` (end excluded), `*`, or absent for the scheme's default (with `*://` the default port of
 *   whichever scheme the URL uses). `self` entries are accepted and match no URL.
 *
 * @throws {AllowedHostError} when the entry follows none of these forms.
 * @example
 * isUrlAllowed('https://api.example.com/v1', [parseAllowedHost('*.example.com')]); // true
 * parseAllowedHost('https://wttr.in').normalised; // 'https://wttr.in'
 */
export function parseAllowedHost(entry: string): AllowedHost {
  const trimmed = entry.trim();
  if (trimmed === '*') throw new AllowedHostError(entry, 'is not a valid entry; to allow every host write "*://*:*"');
  const separator = trimmed.indexOf('://');
  // Without a scheme: a host (with an optional port), meaning http and https alike.
  const scheme = separator === -1 ? '*' : trimmed.slice(0, separator).toLowerCase();
  if (scheme !== '*' && !/^[a-z]+$/.test(scheme))
    throw new AllowedHostError(entry, `has an invalid scheme "${scheme}"`);
  let rest = separator === -1 ? trimmed : trimmed.slice(separator + 3);
  if (rest.endsWith('/')) rest = rest.replace(/\/+$/, '');
  const [host, portText] = splitHostAndPort(entry, rest);
  if (portText.includes('/')) throw new AllowedHostError(entry, 'has a path; give only scheme, host and port');
  if (separator === -1 && host.includes('/') && parseIpRange(host) === undefined)
    throw new AllowedHostError(entry, 'has a path; give only the host and port');
  const hostPattern = parseHost(entry, host);
  const port = parsePort(entry, portText, scheme);
  const normalised = `${scheme}://${formatHost(hostPattern, host)}${portText === '' ? '' : `:${portText}`}`;
  return { original: entry, normalised, scheme, host: hostPattern, port };
}

/**
 * The canonical spelling of an allowlist entry (see {@link parseAllowedHost}): `wttr.in` ->
 * `*://wttr.in`, `HTTPS://Wttr.In/` -> `https://wttr.in`, `*.Example.com` -> `*://*.example.com`.
 *
 * @throws {AllowedHostError} for an entry that is not in the format.
 */
export function normaliseAllowedHost(entry: string): string {
  return parseAllowedHost(entry).normalised;
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
