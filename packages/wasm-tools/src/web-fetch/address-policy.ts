import {
  formatIpv4,
  type IpAddress,
  type IpRange,
  ipRange,
  parseIp,
  parseIpRange,
  rangeContains,
} from './ip-address.js';

/** A blocked range and why it is blocked, in words a host can act on. */
interface BlockedRange {
  range: IpRange;
  reason: string;
}

function blocked(entries: Array<[string, string]>): BlockedRange[] {
  return entries.map(([cidr, reason]) => ({ range: ipRange(cidr), reason }));
}

// Order matters: the first match gives the reason, so specific ranges come before wide ones.
const BLOCKED_IPV4 = blocked([
  ['169.254.169.254/32', 'cloud metadata service'],
  ['255.255.255.255/32', 'broadcast'],
  ['0.0.0.0/8', '"this network" (0.0.0.0/8)'],
  ['10.0.0.0/8', 'private network (10/8)'],
  ['100.64.0.0/10', 'carrier-grade NAT (100.64/10)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private network (172.16/12)'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation range'],
  ['192.88.99.0/24', '6to4 relay anycast'],
  ['192.168.0.0/16', 'private network (192.168/16)'],
  ['198.18.0.0/15', 'benchmarking range'],
  ['198.51.100.0/24', 'documentation range'],
  ['203.0.113.0/24', 'documentation range'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
]);

const BLOCKED_IPV6 = blocked([
  ['::/128', 'unspecified address'],
  ['::1/128', 'loopback'],
  ['fd00:ec2::254/128', 'cloud metadata service'],
  ['::ffff:0:0:0/96', 'IPv4-translated address'],
  ['::/96', 'IPv4-compatible address (deprecated)'],
  ['64:ff9b:1::/48', 'local-use NAT64'],
  ['100::/64', 'discard-only range'],
  ['2001::/32', 'Teredo tunnel'],
  ['2001::/23', 'IETF protocol assignments'],
  ['2001:db8::/32', 'documentation range'],
  ['3fff::/20', 'documentation range'],
  ['5f00::/16', 'segment routing'],
  ['fc00::/7', 'unique local (private) network'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
]);

const MAPPED = ipRange('::ffff:0:0/96');
const NAT64 = ipRange('64:ff9b::/96');
const SIX_TO_FOUR = ipRange('2002::/16');
const GLOBAL_UNICAST = ipRange('2000::/3');

function ipv4(value: bigint): IpAddress {
  return { version: 4, value };
}

/** The IPv4 address a v6 address stands for (mapped, NAT64, 6to4), if any, with the mechanism's name. */
export function embeddedIpv4(address: IpAddress): { address: IpAddress; via: string } | undefined {
  if (address.version !== 6) return undefined;
  if (rangeContains(MAPPED, address)) return { address: ipv4(address.value & 0xffffffffn), via: 'IPv4-mapped' };
  if (rangeContains(NAT64, address)) return { address: ipv4(address.value & 0xffffffffn), via: 'NAT64' };
  if (rangeContains(SIX_TO_FOUR, address)) return { address: ipv4((address.value >> 80n) & 0xffffffffn), via: '6to4' };
  return undefined;
}

/**
 * Why an address must not be reached from a web fetch (loopback, private, link-local, metadata,
 * multicast, reserved, or an IPv6 form that embeds such an IPv4 address), or `undefined` when it
 * is a public address.
 */
export function blockedReason(address: IpAddress): string | undefined {
  if (address.version === 4) return BLOCKED_IPV4.find((entry) => rangeContains(entry.range, address))?.reason;
  const embedded = embeddedIpv4(address);
  if (embedded !== undefined) {
    const reason = blockedReason(embedded.address);
    return reason === undefined ? undefined : `${embedded.via} ${formatIpv4(embedded.address.value)}: ${reason}`;
  }
  const reason = BLOCKED_IPV6.find((entry) => rangeContains(entry.range, address))?.reason;
  if (reason !== undefined) return reason;
  return rangeContains(GLOBAL_UNICAST, address) ? undefined : 'not a global unicast address';
}

/** Decides which resolved addresses a fetch may connect to. */
export interface AddressPolicy {
  /** Why `address` is refused, or `undefined` when it may be reached. Unparseable text is refused. */
  check(address: string): string | undefined;
}

/** The error for an invalid `trustedAddresses` entry; the message says what to write instead. */
export class TrustedAddressError extends Error {
  constructor(entry: string) {
    super(
      `trustedAddresses entry ${JSON.stringify(entry)} is not an IP range: use CIDR form such as "10.1.0.0/16" or "127.0.0.1/32".`,
    );
    this.name = 'TrustedAddressError';
  }
}

/**
 * Builds the address policy: every non-public address is refused unless it lies in one of the
 * `trusted` CIDR ranges (an intranet, or loopback for tests). An IPv4-mapped IPv6 address counts
 * as its IPv4 address for the trusted ranges.
 *
 * @throws {TrustedAddressError} for an entry that is not a CIDR range.
 * @example
 * const policy = createAddressPolicy(['10.1.0.0/16']);
 * policy.check('10.1.2.3'); // undefined: allowed
 * policy.check('127.0.0.1'); // 'loopback'
 */
export function createAddressPolicy(trusted: readonly string[] = []): AddressPolicy {
  const ranges = trusted.map((entry) => {
    const range = parseIpRange(entry.trim());
    if (range === undefined) throw new TrustedAddressError(entry);
    return range;
  });
  function isTrusted(address: IpAddress): boolean {
    if (ranges.some((range) => rangeContains(range, address))) return true;
    const mapped =
      address.version === 6 && rangeContains(MAPPED, address) ? ipv4(address.value & 0xffffffffn) : undefined;
    return mapped !== undefined && ranges.some((range) => rangeContains(range, mapped));
  }
  return {
    check(text) {
      const address = parseIp(text);
      if (address === undefined) return `"${text}" is not an IP address`;
      if (isTrusted(address)) return undefined;
      return blockedReason(address);
    },
  };
}
