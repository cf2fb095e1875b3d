import { isSiteName } from '@boxagnts/workspace';
import { describe, expect, it } from 'vitest';
import { MAX_SITE_URL_LENGTH, parseSiteRequestPath, siteNameOfHost } from './site-request-path.js';

describe('parseSiteRequestPath', () => {
  it('splits a path into decoded segments, keeps the query, collapses empty segments', () => {
    expect(parseSiteRequestPath('/a/b%20c/d.html?x=1#f')).toEqual({
      ok: true,
      segments: ['a', 'b c', 'd.html'],
      trailingSlash: false,
      query: '?x=1#f',
    });
    expect(parseSiteRequestPath('//a///b/')).toEqual({
      ok: true,
      segments: ['a', 'b'],
      trailingSlash: true,
      query: '',
    });
    expect(parseSiteRequestPath('/')).toEqual({ ok: true, segments: [], trailingSlash: true, query: '' });
    expect(parseSiteRequestPath('/caf%C3%A9')).toMatchObject({ ok: true, segments: ['caf\u00e9'] });
  });

  it('decodes once: %252e stays a literal "%2e"', () => {
    expect(parseSiteRequestPath('/%252e%252e/x')).toMatchObject({ ok: true, segments: ['%2e%2e', 'x'] });
  });

  it.each([
    ['/a/../b', 400],
    ['/%2e', 400],
    ['/a%2fb', 400],
    ['/a%5Cb', 400],
    ['/a\\b', 400],
    ['/a%00', 400],
    ['/%c0%ae', 400],
    ['/%e2%82', 400],
    ['/.well-known/x', 404],
    ['/a/.b', 404],
    ['a/b', 400],
    ['*', 400],
    ['http://host/a', 400],
  ] as const)('%s is refused with %i', (target, status) => {
    expect(parseSiteRequestPath(target)).toMatchObject({ ok: false, status });
  });

  it('refuses a target over the length limit with 414, accepts one at it', () => {
    expect(parseSiteRequestPath(`/${'a'.repeat(MAX_SITE_URL_LENGTH)}`)).toMatchObject({ ok: false, status: 414 });
    expect(parseSiteRequestPath(`/${'a'.repeat(MAX_SITE_URL_LENGTH - 1)}`)).toMatchObject({ ok: true });
  });
});

describe('siteNameOfHost', () => {
  it.each([
    ['demo.localhost:7434', 'demo'],
    ['DEMO.LocalHost', 'demo'],
    ['my-site.sites.example.com', 'my-site'],
  ])('%s names %s', (host, name) => {
    expect(siteNameOfHost(host, host.includes('example') ? 'sites.example.com' : 'localhost', isSiteName)).toBe(name);
  });

  it.each([
    undefined,
    'localhost:7434',
    '127.0.0.1',
    '[::1]:7434',
    'a.b.localhost',
    '-x.localhost',
    '.localhost',
    'demo.localhost:abc',
    'demo.localhost.evil.com',
    'demolocalhost',
  ])('%s names no site', (host) => {
    expect(siteNameOfHost(host, 'localhost', isSiteName)).toBeUndefined();
  });
});
