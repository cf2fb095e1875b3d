import { describe, expect, it } from 'vitest';
import { blockedReason, createAddressPolicy, embeddedIpv4, TrustedAddressError } from './address-policy.js';
import { formatIpv4, parseIp, parseIpRange, rangeContains } from './ip-address.js';

function reasonOf(text: string): string | undefined {
  const address = parseIp(text);
  if (address === undefined) throw new Error(`not an address: ${text}`);
  return blockedReason(address);
}

describe('parseIp', () => {
  it('parses v4, v6, brackets, zones and embedded dotted tails to the same numbers', () => {
    expect(parseIp('127.0.0.1')).toEqual({ version: 4, value: 0x7f000001n });
    expect(parseIp('[::1]')).toEqual({ version: 6, value: 1n });
    expect(parseIp('fe80::1%eth0')).toEqual({ version: 6, value: (0xfe80n << 112n) | 1n });
    expect(parseIp('::ffff:127.0.0.1')).toEqual(parseIp('::ffff:7f00:1'));
    expect(parseIp('0:0:0:0:0:ffff:7f00:0001')).toEqual(parseIp('::ffff:127.0.0.1'));
    expect(parseIp('2001:db8::')?.value).toBe(0x20010db8n << 96n);
  });

  it('refuses names and non-canonical IPv4 spellings', () => {
    for (const text of ['example.com', '0x7f.1', '2130706433', '127.1', '1.2.3.256', '', '::g']) {
      expect(parseIp(text), text).toBeUndefined();
    }
  });

  it('parses ranges and tests membership', () => {
    const range = parseIpRange('172.16.0.0/12');
    expect(range).toBeDefined();
    if (range === undefined) return;
    expect(rangeContains(range, parseIp('172.31.255.255') ?? { version: 4, value: 0n })).toBe(true);
    expect(rangeContains(range, parseIp('172.32.0.0') ?? { version: 4, value: 0n })).toBe(false);
    expect(parseIpRange('10.0.0.0/33')).toBeUndefined();
    expect(parseIpRange('10.0.0.0/x')).toBeUndefined();
    expect(parseIpRange('::1')?.prefix).toBe(128);
    expect(formatIpv4(0xc0a80001n)).toBe('192.168.0.1');
  });
});

describe('blockedReason', () => {
  it('blocks every non-public IPv4 range', () => {
    const cases: Array<[string, RegExp]> = [
      ['127.0.0.1', /loopback/],
      ['127.255.255.254', /loopback/],
      ['10.1.2.3', /private/],
      ['172.16.0.1', /private/],
      ['172.31.255.255', /private/],
      ['192.168.1.1', /private/],
      ['169.254.169.254', /metadata/],
      ['169.254.1.1', /link-local/],
      ['100.64.0.1', /carrier-grade/],
      ['100.127.255.255', /carrier-grade/],
      ['0.0.0.0', /this network/],
      ['0.1.2.3', /this network/],
      ['224.0.0.1', /multicast/],
      ['239.255.255.250', /multicast/],
      ['255.255.255.255', /broadcast/],
      ['240.0.0.1', /reserved/],
      ['192.0.2.1', /documentation/],
      ['198.18.0.1', /benchmarking/],
    ];
    for (const [address, reason] of cases) expect(reasonOf(address), address).toMatch(reason);
  });

  it('lets public IPv4 addresses through, including the neighbours of blocked ranges', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '172.15.255.255',
      '172.32.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '11.0.0.0',
      '193.0.0.1',
    ]) {
      expect(reasonOf(address), address).toBeUndefined();
    }
  });

  it('blocks non-public IPv6 and IPv6 forms of private IPv4 addresses', () => {
    const cases: Array<[string, RegExp]> = [
      ['::1', /loopback/],
      ['::', /unspecified/],
      ['::ffff:127.0.0.1', /IPv4-mapped 127\.0\.0\.1: loopback/],
      ['::ffff:7f00:1', /IPv4-mapped 127\.0\.0\.1: loopback/],
      ['::ffff:a9fe:a9fe', /metadata/],
      ['::127.0.0.1', /IPv4-compatible/],
      ['::7f00:1', /IPv4-compatible/],
      ['::ffff:0:7f00:1', /IPv4-translated/],
      ['64:ff9b::127.0.0.1', /NAT64 127\.0\.0\.1: loopback/],
      ['64:ff9b::a00:1', /NAT64 10\.0\.0\.1: private/],
      ['64:ff9b:1::1', /local-use NAT64/],
      ['2002:7f00:1::', /6to4 127\.0\.0\.1: loopback/],
      ['2002:c0a8:101::1', /6to4 192\.168\.1\.1/],
      ['2001::1', /Teredo/],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /Teredo/],
      ['fc00::1', /unique local/],
      ['fd12:3456::1', /unique local/],
      ['fd00:ec2::254', /metadata/],
      ['fe80::1', /link-local/],
      ['febf::1', /link-local/],
      ['ff02::1', /multicast/],
      ['2001:db8::1', /documentation/],
      ['100::1', /discard/],
      ['4000::1', /not a global unicast/],
    ];
    for (const [address, reason] of cases) expect(reasonOf(address), address).toMatch(reason);
  });

  it('lets public IPv6 through, also NAT64 and 6to4 of public IPv4', () => {
    for (const address of [
      '2606:4700:4700::1111',
      '2a00:1450:4001::200e',
      '64:ff9b::808:808',
      '2002:808:808::1',
      '::ffff:8.8.8.8',
    ]) {
      expect(reasonOf(address), address).toBeUndefined();
    }
    expect(embeddedIpv4(parseIp('2002:808:808::1') ?? { version: 6, value: 0n })?.via).toBe('6to4');
  });
});

describe('createAddressPolicy', () => {
  it('blocks by default and refuses text that is not an address', () => {
    const policy = createAddressPolicy();
    expect(policy.check('127.0.0.1')).toBe('loopback');
    expect(policy.check('localhost')).toMatch(/not an IP address/);
    expect(policy.check('93.184.215.14')).toBeUndefined();
  });

  it('exempts trusted ranges, also through IPv4-mapped IPv6, and nothing else', () => {
    const policy = createAddressPolicy(['127.0.0.1/32', '10.1.0.0/16']);
    expect(policy.check('127.0.0.1')).toBeUndefined();
    expect(policy.check('::ffff:127.0.0.1')).toBeUndefined();
    expect(policy.check('127.0.0.2')).toBe('loopback');
    expect(policy.check('::1')).toBe('loopback');
    expect(policy.check('10.1.200.3')).toBeUndefined();
    expect(policy.check('10.2.0.1')).toMatch(/private/);
  });

  it('rejects trusted entries that are not ranges', () => {
    expect(() => createAddressPolicy(['intranet'])).toThrow(TrustedAddressError);
    expect(() => createAddressPolicy(['10.0.0.0/40'])).toThrow(/CIDR/);
  });
});
