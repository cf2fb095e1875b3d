import type { NetworkConfig } from 'just-bash';
import { type AllowedHost, parseAllowedHost } from '../web-fetch/allowed-hosts.js';

/**
 * Network access for the simulated shell's `curl`: `false` (the default) gives no `curl` at all;
 * `true` allows the hosts in the call's `allowedHosts` (GET and HEAD; entries in the one allowlist
 * format of `parseAllowedHost`, those naming one host and one port); a list
 * allows exactly those URL prefixes (an origin, optionally with a path prefix).
 */
export type BashNetworkAccess = boolean | readonly string[];

/**
 * The URL origins one allowlist entry stands for, as just-bash's prefixes: a named host on one
 * port, with its scheme (both http and https for `*` or a bare host). Entries with wildcards,
 * ranges or several ports cannot be written as origins and give none (the shell's `curl` then
 * cannot reach them; `web_fetch` can).
 */
function originsOf(entry: AllowedHost): string[] {
  if (entry.host.kind !== 'literal') return [];
  const schemes =
    entry.scheme === '*'
      ? ['https', 'http']
      : entry.scheme === 'http' || entry.scheme === 'https'
        ? [entry.scheme]
        : [];
  const port = entry.port;
  if (port.kind === 'scheme-default')
    return schemes.map((scheme) => `${scheme}://${(entry.host as { hostname: string }).hostname}`);
  if (port.kind !== 'ranges' || port.ranges.length !== 1) return [];
  const [start, end] = port.ranges[0] as [number, number];
  if (end !== start + 1) return [];
  return schemes.map((scheme) => {
    const origin = new URL(`${scheme}://${(entry.host as { hostname: string }).hostname}:${start}`);
    return origin.origin;
  });
}

/**
 * Turns the tool's network setting and the call's host allowlist into just-bash's network
 * configuration, or `undefined` for none (then `curl` does not exist in the shell). Private and
 * loopback addresses stay refused unless `allowPrivateNetwork` is set, also when a hostname
 * resolves to one.
 */
export function toNetworkConfig(
  access: BashNetworkAccess | undefined,
  allowedHosts: readonly string[] | undefined,
  allowPrivateNetwork: boolean,
): NetworkConfig | undefined {
  if (access === undefined || access === false) return undefined;
  const prefixes =
    access === true
      ? (allowedHosts ?? []).flatMap((entry) => {
          try {
            return originsOf(parseAllowedHost(entry));
          } catch {
            return []; // A malformed entry allows nothing (web_fetch and the config report it).
          }
        })
      : access.filter((prefix) => prefix.trim() !== '');
  if (prefixes.length === 0) return undefined;
  return {
    allowedUrlPrefixes: [...prefixes],
    allowedMethods: ['GET', 'HEAD'],
    denyPrivateRanges: !allowPrivateNetwork,
    maxRedirects: 5,
    timeoutMs: 30_000,
    maxResponseSize: 10 * 1024 * 1024,
  };
}
