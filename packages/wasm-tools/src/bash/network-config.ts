import type { NetworkConfig } from 'just-bash';

/**
 * Network access for the simulated shell's `curl`: `false` (the default) gives no `curl` at all;
 * `true` allows the hosts in the call's `allowedHosts` (http and https, GET and HEAD); a list
 * allows exactly those URL prefixes (an origin, optionally with a path prefix).
 */
export type BashNetworkAccess = boolean | readonly string[];

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
      ? (allowedHosts ?? []).flatMap((host) => [`https://${host}`, `http://${host}`])
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
