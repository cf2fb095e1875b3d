import { describe, expect, it } from 'vitest';
import {
  AllowedHostError,
  isUrlAllowed,
  normaliseAllowedHost,
  parseAllowedHost,
  parseAllowedHosts,
} from './allowed-hosts.js';

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
    for (const entry of [
      'example.com/path',
      'example.com:http',
      'exa*mple.com',
      'user@example.com',
      ':8080',
      'mailto:a',
    ]) {
      expect(() => parseAllowedHost(entry), entry).toThrow(AllowedHostError);
    }
  });
});

describe('one allowlist format (BoxAgnts and this project)', () => {
  it('reads a bare host as http and https on their default ports', () => {
    expect(allows(['wttr.in'], 'https://wttr.in/Paris?format=3')).toBe(true);
    expect(allows(['wttr.in'], 'http://wttr.in/')).toBe(true);
    expect(allows(['wttr.in'], 'https://wttr.in:8443/')).toBe(false);
    expect(allows(['wttr.in'], 'https://evil-wttr.in/')).toBe(false);
    expect(allows(['wttr.in'], 'ftp://wttr.in/')).toBe(false);
  });

  it('reads a host with a port, and wildcard subdomains without a scheme', () => {
    expect(allows(['api.example.com:8080'], 'http://api.example.com:8080/x')).toBe(true);
    expect(allows(['api.example.com:8080'], 'https://api.example.com/x')).toBe(false);
    expect(allows(['*.example.com'], 'https://a.b.example.com/')).toBe(true);
    expect(allows(['*.example.com'], 'https://example.com/')).toBe(false);
    expect(allows(['[::1]:8080'], 'http://[::1]:8080/')).toBe(true);
  });

  it("reads BoxAgnts' URL entries, with a trailing slash and any case", () => {
    expect(allows(['https://wttr.in'], 'https://wttr.in/x')).toBe(true);
    expect(allows(['HTTPS://WTTR.IN/'], 'https://wttr.in/x')).toBe(true);
    expect(allows(['https://wttr.in'], 'http://wttr.in/x')).toBe(false);
  });

  it('normalises every spelling to one canonical entry', () => {
    expect(normaliseAllowedHost('wttr.in')).toBe('*://wttr.in');
    expect(normaliseAllowedHost('WTTR.in:8080')).toBe('*://wttr.in:8080');
    expect(normaliseAllowedHost('HTTPS://Wttr.In/')).toBe('https://wttr.in');
    expect(normaliseAllowedHost('*.Example.COM')).toBe('*://*.example.com');
    expect(normaliseAllowedHost('https://example.com:*')).toBe('https://example.com:*');
    expect(normaliseAllowedHost('http://127.1')).toBe('http://127.0.0.1');
    expect(normaliseAllowedHost('http://10.1.0.0/16')).toBe('http://10.1.0.0/16');
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
