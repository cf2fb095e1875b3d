import { describe, expect, it } from 'vitest';
import { compileDomainPattern, normalizeDomain } from './domain-pattern.js';

describe('normalizeDomain', () => {
  it('accepts bare hosts and `*.` wildcards, normalised', () => {
    expect(normalizeDomain('Example.COM.')).toEqual({ host: 'example.com', subdomains: false });
    expect(normalizeDomain('*.example.com')).toEqual({ host: 'example.com', subdomains: true });
    expect(normalizeDomain('bücher.de')).toEqual({ host: 'xn--bcher-kva.de', subdomains: false });
    expect(normalizeDomain('[::1]')).toEqual({ host: '[::1]', subdomains: false });
    expect(normalizeDomain('127.0.0.1')).toEqual({ host: '127.0.0.1', subdomains: false });
  });

  it.each([
    '',
    '*.',
    'https://example.com',
    'example.com/path',
    'example.com:8080',
    'a@example.com',
    'exa mple.com',
    'ex*ample.com',
    'a.*.com',
  ])('rejects %j', (domain) => {
    expect(normalizeDomain(domain)).toBeUndefined();
  });
});

describe('compileDomainPattern', () => {
  const strict = compileDomainPattern('docs.example.com', 'strict');

  it('matches the exact host whatever the path, port or case', () => {
    expect(strict('https://docs.example.com/guide?q=1')).toBe(true);
    expect(strict('http://docs.example.com:8080/')).toBe(true);
    expect(strict('HTTPS://DOCS.EXAMPLE.COM/')).toBe(true);
    expect(strict('https://docs.example.com./')).toBe(true);
    expect(strict('wss://docs.example.com/socket')).toBe(true);
  });

  it('is not fooled by look-alike URLs', () => {
    expect(strict('https://docs.example.com@evil.com/')).toBe(false);
    expect(strict('https://docs.example.com:pass@evil.com/')).toBe(false);
    expect(strict('https://docs.example.com.evil.com/')).toBe(false);
    expect(strict('https://evil.com/?next=https://docs.example.com')).toBe(false);
    expect(strict('https://evil.com/#docs.example.com')).toBe(false);
    expect(strict('https://evil.com\\@docs.example.com/')).toBe(false);
    expect(strict('https://evildocs.example.com/')).toBe(false);
    expect(strict('https://sub.docs.example.com/')).toBe(false);
  });

  it('strict matchers need a valid web URL', () => {
    expect(strict('docs.example.com/guide')).toBe(false);
    expect(strict('not a url')).toBe(false);
    expect(strict('ftp://docs.example.com/file')).toBe(false);
    expect(strict('file:///etc/passwd')).toBe(false);
    expect(strict('')).toBe(false);
  });

  it('`*.` matches subdomains but not the apex', () => {
    const wildcard = compileDomainPattern('*.example.com', 'strict');
    expect(wildcard('https://docs.example.com/')).toBe(true);
    expect(wildcard('https://a.b.example.com/')).toBe(true);
    expect(wildcard('https://example.com/')).toBe(false);
    expect(wildcard('https://badexample.com/')).toBe(false);
    expect(wildcard('https://example.com.evil.com/')).toBe(false);
  });

  it('broad matchers (deny, ask) also read bare hosts and other schemes', () => {
    const broad = compileDomainPattern('evil.com', 'broad');
    expect(broad('evil.com/payload')).toBe(true);
    expect(broad('ftp://evil.com/x')).toBe(true);
    expect(broad('https://EVIL.com./x')).toBe(true);
    expect(broad('https://good.com/?u=evil.com')).toBe(false);
  });

  it('an invalid pattern matches nothing', () => {
    expect(compileDomainPattern('https://x.com', 'broad')('https://x.com')).toBe(false);
  });

  it('international names match in either form', () => {
    const international = compileDomainPattern('bücher.de', 'strict');
    expect(international('https://bücher.de/')).toBe(true);
    expect(international('https://xn--bcher-kva.de/')).toBe(true);
  });
});
