import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../test/conformance-adapters.js';
import { createProvider } from './default-registry.js';

describe('providers say which protocol they speak', () => {
  it.each(ADAPTERS.map((adapter) => [adapter.name, adapter] as const))('%s', (name, adapter) => {
    expect(adapter.create('http://127.0.0.1:9').adapter).toBe(name);
  });

  it('registry providers carry their row adapter', () => {
    expect(createProvider({ provider: 'deepseek', apiKey: 'k' }).adapter).toBe('openai-chat');
    expect(createProvider({ provider: 'anthropic', apiKey: 'k' }).adapter).toBe('anthropic-messages');
  });
});
