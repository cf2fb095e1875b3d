import { describe, expect, it } from 'vitest';

// The root vitest config maps `@boxagnts/<name>` and every subpath export with a `@boxagnts/source`
// condition to the sources; a subpath must not fall through to the package's main entry.
describe('source aliases of the vitest config', () => {
  it('resolves @boxagnts/api/adapter-kit to its own entry, not to the main one', async () => {
    const main = await import('@boxagnts/api');
    const kit = await import('@boxagnts/api/adapter-kit');
    expect(typeof kit.sendStreamRequest).toBe('function');
    expect('sendStreamRequest' in main).toBe(false);
    expect(typeof main.createProvider).toBe('function');
  });
});
