import { describe, expect, it } from 'vitest';
import { buildOllamaRequestBody, toOllamaThink } from './ollama-request.js';

describe('toOllamaThink', () => {
  it.each([
    [{ type: 'disabled' }, 'qwen3:8b', false],
    [{ type: 'enabled', budgetTokens: 2000 }, 'qwen3:8b', true],
    [{ type: 'effort', effort: 'low' }, 'gpt-oss:20b', 'low'],
    [{ type: 'effort', effort: 'high' }, 'deepseek-r1:8b', true],
  ] as const)('%j on %s is %j', (thinking, model, think) => {
    expect(toOllamaThink(thinking, model)).toBe(think);
  });

  it('sends nothing when the request does not say', () => {
    expect(toOllamaThink(undefined, 'qwen3')).toBeUndefined();
  });
});

describe('buildOllamaRequestBody', () => {
  it('always sends stream explicitly, and an escape hatch cannot flip it', () => {
    const body = buildOllamaRequestBody(
      {
        model: 'm',
        messages: [{ role: 'user', content: 'x' }],
        providerOptions: { ollama: { stream: true, format: 'json' } },
      },
      { providerId: 'ollama', stream: false },
    );
    expect(body).toEqual({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: false, format: 'json' });
  });

  it('merges options from providerOptions one level deep, the provider id entry last', () => {
    const body = buildOllamaRequestBody(
      {
        model: 'm',
        messages: [],
        temperature: 0.3,
        providerOptions: {
          ollama: { options: { num_ctx: 8192, temperature: 0.9 } },
          'my-ollama': { options: { seed: 7 } },
        },
      },
      { providerId: 'my-ollama', stream: true, keepAlive: -1 },
    );
    expect(body.options).toEqual({ temperature: 0.9, num_ctx: 8192, seed: 7 });
    expect(body.keep_alive).toBe(-1);
  });
});
