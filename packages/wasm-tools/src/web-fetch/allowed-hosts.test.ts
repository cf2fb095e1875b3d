import { describe, expect, it } from 'vitest';
import { AllowedHostError, isUrlAllowed, parseAllowedHost, parseAllowedHosts } from './allowed-hosts.js';

function allows(entries: string[], url: string): boolean {
  return isUrlAllowed(url, parseAllowedHosts(entries));
}

describe('parseAllowedHost', () => {
  it('parses scheme, host and port with defaults by scheme', () => {
    expect(parseAllowedHost('https://example.com')).toMatchObject({
      scheme: 'https',
      host: { kind: 'literal', hostname: 'example.com' },
      port: { kind: 'ranges', ranges: [[443, 444]] },
    });
    expect(parseAllowedHost('http://Example.COM/').host).toEqual({ kind: 'literal', hostname: 'example.com' });
    expect(parseAllowedHost('https://*.example.com').host).toEqual({ kind: 'subdomain', suffix: '.example.com' });
    expect(parseAllowedHost('*://*:*')).toMatchObject({ scheme: '*', host: { kind: 'any' }, port: { kind: 'any' } });
    expect(parseAllowedHost('*://example.com').port).toEqual({ kind: 'scheme-default' });
    expect(parseAllowedHost('https://example.com:8000..8100').port).toEqual({ kind: 'ranges', ranges: [[8000, 8100]] });
    expect(parseAllowedHost('http://[::1]:8080').host).toEqual({ kind: 'literal', hostname: '[::1]' });
    expect(parseAllowedHost('http://10.0.0.0/8').host.kind).toBe('range');
    expect(parseAllowedHost('http://[fd00::]/8:80').host.kind).toBe('range');
    expect(parseAllowedHost('postgres://db.internal').port).toEqual({ kind: 'ranges', ranges: [[5432, 5433]] });
    expect(parseAllowedHost('http://self').host).toEqual({ kind: 'self' });
  });

  it('rejects malformed entries with a message showing the syntax', () => {
    for (const entry of [
      'example.com',
      '*',
      'https://example.com/path',
      'https://exa*mple.com',
      'https://*.*.example.com',
      'https://example.com:99999',
      'https://example.com:http',
      'ftp://example.com',
      'ht-tp://example.com',
      'https://user@example.com',
      'https://{a,b}.com',
      'https://[::1',
      'https://',
    ]) {
      expect(() => parseAllowedHost(entry), entry).toThrow(AllowedHostError);
    }
    expect(() => parseAllowedHost('*')).toThrow(/\*:\/\/\*:\*/);
    expect(() => parseAllowedHost('example.com')).toThrow(/scheme/);
  });
});

describe('isUrlAllowed', () => {
  it('matches scheme, host and default port exactly', () => {
    expect(allows(['https://example.com'], 'https://example.com/a?b')).toBe(true);
    expect(allows(['https://example.com'], 'https://example.com:443/')).toBe(true);
    expect(allows(['https://example.com'], 'http://example.com/')).toBe(false);
    expect(allows(['https://example.com'], 'https://example.com:8443/')).toBe(false);
    expect(allows(['https://example.com'], 'https://www.example.com/')).toBe(false);
    expect(allows(['https://example.com'], 'https://example.com.evil.net/')).toBe(false);
    expect(allows(['https://example.com'], 'https://evilexample.com/')).toBe(false);
  });

  it('treats *.domain as subdomains only', () => {
    expect(allows(['https://*.example.com'], 'https://a.example.com/')).toBe(true);
    expect(allows(['https://*.example.com'], 'https://a.b.example.com/')).toBe(true);
    expect(allows(['https://*.example.com'], 'https://example.com/')).toBe(false);
    expect(allows(['https://*.example.com'], 'https://badexample.com/')).toBe(false);
    expect(allows(['https://*.example.com'], 'https://example.com.evil.net/')).toBe(false);
  });

  it('handles port and scheme wildcards', () => {
    expect(allows(['*://example.com:8080'], 'http://example.com:8080/')).toBe(true);
    expect(allows(['*://example.com:8080'], 'https://example.com:8080/')).toBe(true);
    expect(allows(['*://example.com:8080'], 'https://example.com/')).toBe(false);
    expect(allows(['https://example.com:*'], 'https://example.com:1234/')).toBe(true);
    expect(allows(['https://example.com:*'], 'http://example.com:1234/')).toBe(false);
    expect(allows(['*://example.com'], 'http://example.com/')).toBe(true);
    expect(allows(['*://example.com'], 'https://example.com/')).toBe(true);
    expect(allows(['*://example.com'], 'http://example.com:443/')).toBe(false);
    expect(allows(['https://example.com:8000..8100'], 'https://example.com:8099/')).toBe(true);
    expect(allows(['https://example.com:8000..8100'], 'https://example.com:8100/')).toBe(false);
    expect(allows(['*://*:*'], 'http://anything.test:1/')).toBe(true);
    expect(allows(['*://*'], 'https://anything.test/')).toBe(true);
    expect(allows(['*://*'], 'https://anything.test:8443/')).toBe(false);
  });

  it('compares hosts after URL normalisation, so odd IPv4 spellings are the address they mean', () => {
    expect(allows(['http://127.0.0.1'], 'http://0x7f.1/')).toBe(true);
    expect(allows(['http://127.0.0.1'], 'http://2130706433/')).toBe(true);
    expect(allows(['http://example.com'], 'http://EXAMPLE.com./')).toBe(false);
    expect(allows(['http://example.com'], 'http://example.com@127.0.0.1/')).toBe(false);
    expect(allows(['http://example.com'], 'http://127.0.0.1#@example.com/')).toBe(false);
    expect(allows(['http://[::1]'], 'http://[0:0::1]/')).toBe(true);
    expect(allows(['http://10.0.0.0/8'], 'http://10.9.8.7/')).toBe(true);
    expect(allows(['http://10.0.0.0/8'], 'http://11.0.0.1/')).toBe(false);
    expect(allows(['http://*.example.com'], 'http://10.0.0.1/')).toBe(false);
  });

  it('matches nothing with self entries, an empty list or unparseable URLs', () => {
    expect(allows(['http://self'], 'http://self/')).toBe(false);
    expect(allows([], 'https://example.com/')).toBe(false);
    expect(allows(['*://*:*'], 'not a url')).toBe(false);
    expect(allows(['*://*:*'], 'file:///etc/passwd')).toBe(false);
  });
});
