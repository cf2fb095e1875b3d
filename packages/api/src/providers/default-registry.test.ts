import { describe, expect, it } from 'vitest';
import { createProvider, getDefaultProviderRegistry, getProvider, resolveModel } from './default-registry.js';

describe('the default registry', () => {
  it('is made once, holds the built-in rows, and caches getProvider but not createProvider', () => {
    const registry = getDefaultProviderRegistry();
    expect(getDefaultProviderRegistry()).toBe(registry);
    expect(registry.get('anthropic')?.adapter).toBe('anthropic-messages');
    expect(getProvider('deepseek')).toBe(getProvider('deepseek'));
    expect(getProvider('deepseek').id).toBe('deepseek');
    expect(createProvider({ provider: 'deepseek' })).not.toBe(createProvider({ provider: 'deepseek' }));
    expect(resolveModel('xai/grok-4')).toMatchObject({ model: 'grok-4', entry: { id: 'xai' } });
  });

  it('sees rows that plugins add to it', () => {
    const registry = getDefaultProviderRegistry();
    registry.use((target) =>
      target.register({
        id: 'default-registry-test',
        name: 'Test',
        adapter: 'openai-chat',
        baseURL: 'http://127.0.0.1:9/v1',
        apiKeyEnvVars: [],
        authStyle: 'none',
        docsURL: 'https://example.test',
      }),
    );
    try {
      expect(getProvider('default-registry-test').name).toBe('Test');
      expect(resolveModel('default-registry-test/m').model).toBe('m');
    } finally {
      registry.unregister('default-registry-test');
    }
    expect(() => getProvider('default-registry-test')).toThrow('Unknown provider "default-registry-test"');
  });
});
