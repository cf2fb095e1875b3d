import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AddressPolicy, createAddressPolicy } from './address-policy.js';
import { createGuardedAgent, findBlockedAddressError } from './guarded-agent.js';
import { type LoopbackServer, mapLookup, startServer } from './loopback.test-helpers.js';

let server: LoopbackServer;

beforeAll(async () => {
  server = await startServer('127.0.0.1', (_request, response) => response.end('reached'));
});

afterAll(async () => {
  await server.close();
});

async function attempt(policy: AddressPolicy, url: string, lookup = mapLookup({ 'x.test': '127.0.0.1' })) {
  const agent = await createGuardedAgent({ policy, lookup, timeoutMs: 5000 });
  try {
    const response = await request(url, { dispatcher: agent });
    return { ok: true as const, text: await response.body.text() };
  } catch (error) {
    return { ok: false as const, error };
  } finally {
    await agent.destroy();
  }
}

describe('createGuardedAgent', () => {
  it('connects when every resolved address is allowed', async () => {
    const result = await attempt(createAddressPolicy(['127.0.0.1/32']), `http://x.test:${server.port}/`);
    expect(result).toEqual({ ok: true, text: 'reached' });
  });

  it('refuses at lookup time when a resolved address is blocked', async () => {
    const before = server.requests.length;
    const result = await attempt(createAddressPolicy(), `http://x.test:${server.port}/`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(findBlockedAddressError(result.error)).toMatchObject({ hostname: 'x.test', address: '127.0.0.1' });
    expect(server.requests.length).toBe(before);
  });

  it('checks the connected socket too: IP literals skip the lookup but not the check', async () => {
    const before = server.requests.length;
    const result = await attempt(createAddressPolicy(), `http://127.0.0.1:${server.port}/`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(findBlockedAddressError(result.error)?.message).toMatch(/loopback/);
    expect(server.requests.length).toBe(before);
  });

  it('checks the connected socket even when the lookup was satisfied', async () => {
    // A policy that lets the lookup pass once, then refuses: the remote-address check still fires.
    let calls = 0;
    const flaky: AddressPolicy = { check: () => (calls++ === 0 ? undefined : 'refused at connect') };
    const before = server.requests.length;
    const result = await attempt(flaky, `http://x.test:${server.port}/`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(findBlockedAddressError(result.error)?.message).toContain('refused at connect');
    expect(calls).toBe(2);
    expect(server.requests.length).toBe(before);
  });

  it('passes resolver failures through', async () => {
    const result = await attempt(createAddressPolicy(), `http://nowhere.test:${server.port}/`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(findBlockedAddressError(result.error)).toBeUndefined();
    expect(String((result.error as Error).message)).toMatch(/ENOTFOUND/);
  });
});
