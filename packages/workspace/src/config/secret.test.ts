import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isSecret, mask, Secret } from './secret.js';

const KEY = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz-9876';

describe('mask', () => {
  it('keeps a known prefix and at most the last 4 characters', () => {
    expect(mask(KEY)).toBe('sk-ant-…9876');
    expect(mask('AIzaSyA-1234567890abcdefghij')).toBe('AIza…ghij');
    expect(mask('plain-but-long-value-wxyz')).toBe('…wxyz');
  });

  it('shows nothing of short values', () => {
    expect(mask('hunter2')).toBe('…');
    expect(mask('123456789012345')).toBe('…');
  });
});

describe('Secret', () => {
  const secret = new Secret(KEY, 'secret:anthropic');

  it('prints only the masked form everywhere', () => {
    const texts = [
      String(secret),
      `${secret}`,
      JSON.stringify({ secret }),
      JSON.stringify(secret),
      inspect(secret),
      inspect({ nested: { secret } }, { depth: 10, showHidden: true }),
      new Error(`failed with ${secret}`).message,
      Object.keys(secret).join(','),
    ];
    for (const text of texts) expect(text).not.toContain('abcdefghijklmnop');
    expect(String(secret)).toBe('sk-ant-…9876');
    expect(inspect(secret)).toBe('Secret(sk-ant-…9876 from secret:anthropic)');
    expect(JSON.stringify({ secret })).toBe('{"secret":"sk-ant-…9876"}');
  });

  it('reveals the value on request and is recognised across copies', () => {
    expect(secret.reveal()).toBe(KEY);
    expect(isSecret(secret)).toBe(true);
    expect(isSecret({ masked: 'x' })).toBe(false);
  });
});
