import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as a number, so ranges compare exactly whatever the spelling (`::ffff:7f00:1`). */
export interface IpAddress {
  version: 4 | 6;
  value: bigint;
}

/** An address range in CIDR form (`10.0.0.0/8`, `fc00::/7`). */
export interface IpRange {
  version: 4 | 6;
  /** The first address, with the host bits cleared. */
  base: bigint;
  prefix: number;
}

function parseIpv4Value(text: string): bigint {
  return text.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);
}

function parseIpv6Value(text: string): bigint {
  let body = text;
  let tail: bigint | undefined;
  const lastColon = body.lastIndexOf(':');
  if (body.slice(lastColon + 1).includes('.')) {
    // An embedded dotted IPv4 tail (`::ffff:127.0.0.1`) counts as the last two groups.
    tail = parseIpv4Value(body.slice(lastColon + 1));
    body = `${body.slice(0, lastColon + 1)}0:0`;
  }
  const [head = '', rest] = body.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros = rest === undefined ? 0 : 8 - headGroups.length - restGroups.length;
  const groups = [...headGroups, ...Array.from({ length: zeros }, () => '0'), ...restGroups];
  let value = groups.reduce((sum, group) => (sum << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
  if (tail !== undefined) value = (value & ~0xffffffffn) | tail;
  return value;
}

/**
 * Parses an IP address in its canonical textual forms: dotted IPv4, or IPv6 with or without
 * brackets and zone id. Returns `undefined` for anything else (host names, `0x7f.1`; the URL
 * parser has already turned such IPv4 spellings into dotted form).
 */
export function parseIp(text: string): IpAddress | undefined {
  let candidate = text.trim();
  if (candidate.startsWith('[') && candidate.endsWith(']')) candidate = candidate.slice(1, -1);
  const zone = candidate.indexOf('%');
  if (zone !== -1 && candidate.includes(':')) candidate = candidate.slice(0, zone);
  if (isIPv4(candidate)) return { version: 4, value: parseIpv4Value(candidate) };
  if (isIPv6(candidate)) return { version: 6, value: parseIpv6Value(candidate) };
  return undefined;
}

/** Parses `address/prefix` (or a bare address, meaning one address) into an {@link IpRange}. */
export function parseIpRange(text: string): IpRange | undefined {
  const slash = text.lastIndexOf('/');
  const address = parseIp(slash === -1 ? text : text.slice(0, slash));
  if (address === undefined) return undefined;
  const bits = address.version === 4 ? 32 : 128;
  const prefixText = slash === -1 ? String(bits) : text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  if (prefix > bits) return undefined;
  return { version: address.version, base: address.value & rangeMask(address.version, prefix), prefix };
}

function rangeMask(version: 4 | 6, prefix: number): bigint {
  const bits = version === 4 ? 32 : 128;
  const all = (1n << BigInt(bits)) - 1n;
  return (all >> BigInt(bits - prefix)) << BigInt(bits - prefix);
}

/** Whether `address` lies in `range` (always false across IP versions). */
export function rangeContains(range: IpRange, address: IpAddress): boolean {
  return range.version === address.version && (address.value & rangeMask(range.version, range.prefix)) === range.base;
}

/** Builds an {@link IpRange} from CIDR text known to be valid (the built-in tables). */
export function ipRange(text: string): IpRange {
  const range = parseIpRange(text);
  if (range === undefined) throw new TypeError(`Not a CIDR range: ${text}`);
  return range;
}

/** Dotted text of an IPv4 value. */
export function formatIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}
