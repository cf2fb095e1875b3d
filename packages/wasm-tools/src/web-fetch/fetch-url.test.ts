import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAddressPolicy } from './address-policy.js';
import { parseAllowedHosts } from './allowed-hosts.js';
import { checkUrl, type FetchRequest, fetchFollowingRedirects } from './fetch-url.js';

// MockAgent stands in for the network here so redirect rules can be tested with https origins;
// the real-socket tests (address checks at connect time) are in web-fetch-tool.test.ts.
let agent: MockAgent;

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
});

afterEach(async () => {
  await agent.close();
});

function fetchRequest(url: string, overrides: Partial<FetchRequest> = {}): FetchRequest {
  return {
    url: new URL(url),
    allowed: parseAllowedHosts(['*://*.test:*']),
    addresses: createAddressPolicy(),
    dispatcher: agent,
    signal: new AbortController().signal,
    maxRedirects: 5,
    userAgent: 'test-agent',
    accept: 'text/html',
    ...overrides,
  };
}

function redirect(origin: string, path: string, location: string, status = 302): void {
  agent.get(origin).intercept({ path, method: 'GET' }).reply(status, '', { headers: { location } });
}

describe('fetchFollowingRedirects', () => {
  it('follows redirects (http -> https upgrade included) and records the hops', async () => {
    redirect('http://a.test', '/', 'https://a.test/secure', 301);
    redirect('https://a.test', '/secure', '/final', 307);
    agent.get('https://a.test').intercept({ path: '/final', method: 'GET' }).reply(200, 'done');
    const outcome = await fetchFollowingRedirects(fetchRequest('http://a.test/'));
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.url.href).toBe('https://a.test/final');
    expect(outcome.redirects).toEqual(['http://a.test/', 'https://a.test/secure']);
    expect(await outcome.body.text()).toBe('done');
  });

  it('refuses an https -> http downgrade', async () => {
    redirect('https://a.test', '/', 'http://a.test/plain');
    const outcome = await fetchFollowingRedirects(fetchRequest('https://a.test/'));
    expect(outcome).toMatchObject({ ok: false, reason: 'downgrade' });
  });

  it('stops after maxRedirects', async () => {
    for (let index = 0; index < 4; index += 1) redirect('http://a.test', `/${index}`, `/${index + 1}`);
    const outcome = await fetchFollowingRedirects(fetchRequest('http://a.test/0', { maxRedirects: 3 }));
    expect(outcome).toMatchObject({ ok: false, reason: 'too-many-redirects' });
    if (!outcome.ok) expect(outcome.redirects).toHaveLength(4);
  });

  it('re-checks every hop against the allowlist, scheme and address rules', async () => {
    redirect('http://a.test', '/out', 'http://elsewhere.example/');
    redirect('http://a.test', '/file', 'file:///etc/passwd');
    redirect('http://a.test', '/meta', 'http://169.254.169.254/latest/meta-data');
    const all = parseAllowedHosts(['*://*:*']);
    expect(await fetchFollowingRedirects(fetchRequest('http://a.test/out'))).toMatchObject({
      ok: false,
      reason: 'not-allowed',
    });
    expect(await fetchFollowingRedirects(fetchRequest('http://a.test/file', { allowed: all }))).toMatchObject({
      ok: false,
      reason: 'scheme',
    });
    expect(await fetchFollowingRedirects(fetchRequest('http://a.test/meta', { allowed: all }))).toMatchObject({
      ok: false,
      reason: 'blocked-address',
    });
  });

  it('sends user info as Basic auth to the first origin only', async () => {
    const seen: Array<string | undefined> = [];
    const record = (options: { headers?: unknown }) => {
      const headers = options.headers as Record<string, string | undefined>;
      seen.push(headers.authorization);
    };
    agent
      .get('http://a.test')
      .intercept({ path: '/start', method: 'GET' })
      .reply((options) => {
        record(options);
        return { statusCode: 302, data: '', responseOptions: { headers: { location: '/same' } } };
      });
    agent
      .get('http://a.test')
      .intercept({ path: '/same', method: 'GET' })
      .reply((options) => {
        record(options);
        return { statusCode: 302, data: '', responseOptions: { headers: { location: 'http://b.test/other' } } };
      });
    agent
      .get('http://b.test')
      .intercept({ path: '/other', method: 'GET' })
      .reply((options) => {
        record(options);
        return { statusCode: 200, data: 'ok' };
      });
    const outcome = await fetchFollowingRedirects(fetchRequest('http://user:p%40ss@a.test/start'));
    expect(outcome.ok).toBe(true);
    const basic = `Basic ${Buffer.from('user:p@ss').toString('base64')}`;
    expect(seen).toEqual([basic, basic, undefined]);
  });
});

describe('checkUrl', () => {
  const policy = createAddressPolicy();
  const all = parseAllowedHosts(['*://*:*']);
  it('refuses non-http schemes, unlisted hosts and blocked literals', () => {
    expect(checkUrl(new URL('ftp://a.test/x'), all, policy)?.reason).toBe('scheme');
    expect(checkUrl(new URL('file:///etc/passwd'), all, policy)?.reason).toBe('scheme');
    expect(checkUrl(new URL('http://[::ffff:127.0.0.1]/'), all, policy)?.reason).toBe('blocked-address');
    expect(checkUrl(new URL('http://a.test/'), parseAllowedHosts(['https://a.test']), policy)?.message).toMatch(
      /adding "http:\/\/a\.test"/,
    );
    expect(checkUrl(new URL('https://a.test/'), all, policy)).toBeUndefined();
  });
});
