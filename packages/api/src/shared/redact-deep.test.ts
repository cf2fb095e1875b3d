import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isLlmError, LlmError } from '../spec/llm-error.js';
import { MAX_REDACT_DEPTH, redactDeep } from './redact-deep.js';
import {
  MIN_REMEMBERED_SECRET_LENGTH,
  rememberedSecrets,
  rememberHeaderSecrets,
  rememberSecret,
} from './secret-registry.js';

const SECRET = 'plainsecret-31415926535';

describe('redactDeep', () => {
  it('masks the secret in strings, keys, arrays, Maps, Headers and credential fields', () => {
    const value = {
      message: `echo ${SECRET}`,
      [SECRET]: 'as a key',
      list: [SECRET, { nested: `x${SECRET}x` }],
      map: new Map([['k', SECRET]]),
      headers: new Headers({ 'x-api-key': 'anything', accept: SECRET }),
      apiKey: 'short',
    };
    const printed = JSON.stringify(redactDeep(value, [SECRET]));
    expect(printed).not.toContain(SECRET);
    expect(printed).not.toContain('anything');
    expect(printed).not.toContain('short');
  });

  it('returns a value with nothing to mask as itself', () => {
    const reason = new DOMException('aborted', 'AbortError');
    expect(redactDeep(reason, [SECRET])).toBe(reason);
    const body = { error: { message: 'rate limited' } };
    expect(redactDeep(body, [SECRET])).toBe(body);
  });

  it('survives cycles and bounds depth', () => {
    const cyclic: Record<string, unknown> = { secret: SECRET };
    cyclic.self = cyclic;
    const copy = redactDeep(cyclic, [SECRET]) as Record<string, unknown>;
    expect(copy.self).toBe(copy);
    let deep: Record<string, unknown> = { leaf: SECRET };
    for (let level = 0; level < 10_000; level += 1) deep = { next: deep };
    expect(JSON.stringify(redactDeep(deep, [SECRET]))).toContain('[truncated]');
    expect(MAX_REDACT_DEPTH).toBe(32);
  });

  it('keeps an error its class, markers and cause chain, masked all the way down', () => {
    const inner = new TypeError(`fetch failed for ${SECRET}`);
    (inner as unknown as { config: unknown }).config = { headers: { authorization: `Bearer ${SECRET}` } };
    const nested = new LlmError({ reason: 'network', message: 'outer', cause: inner });
    const outer = new Error(`wrapped ${SECRET}`, { cause: nested });
    const copy = redactDeep(outer, [SECRET]) as Error;
    expect(copy).toBeInstanceOf(Error);
    expect(isLlmError(copy.cause)).toBe(true);
    expect((copy.cause as Error).cause).toBeInstanceOf(TypeError);
    expect(inspect(copy, { depth: Number.POSITIVE_INFINITY, showHidden: true })).not.toContain(SECRET);
    expect(inner.message).toContain(SECRET); // the original is not changed
  });
});

describe('secret registry', () => {
  it('remembers keys and credential header values (without the scheme), not short values', () => {
    rememberSecret('tiny');
    rememberHeaderSecrets({ authorization: 'Bearer registry-bearer-000111', accept: 'application/json-long-value' });
    const secrets = rememberedSecrets();
    expect(secrets).toContain('registry-bearer-000111');
    expect(secrets).not.toContain('tiny');
    expect(secrets).not.toContain('application/json-long-value');
    expect(MIN_REMEMBERED_SECRET_LENGTH).toBe(8);
  });

  it('makes every LlmError mask a remembered secret, whoever builds it', () => {
    rememberSecret('registry-remembered-key-42');
    const error = new LlmError({
      reason: 'auth',
      message: 'echo registry-remembered-key-42',
      body: { error: { message: 'registry-remembered-key-42' } },
      url: 'https://example.test/v1?key=registry-remembered-key-42',
    });
    expect(inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true })).not.toContain(
      'registry-remembered-key-42',
    );
  });
});
