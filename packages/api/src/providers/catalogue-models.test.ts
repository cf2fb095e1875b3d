import { describe, expect, it } from 'vitest';
import { SHIPPED_PROVIDER_CATALOGUE } from './catalogue-models.js';

describe('the shipped catalogue as the registry sees it', () => {
  it('lists the models of a built-in row by its own id', () => {
    const ids = SHIPPED_PROVIDER_CATALOGUE.listModels({ id: 'anthropic', modelsDevId: 'anthropic' }).map(
      (model) => model.id,
    );
    expect(ids).toContain('claude-sonnet-4-5');
    expect(ids.every((id) => id.startsWith('claude'))).toBe(true);
  });

  it('uses modelsDevId for rows the catalogue does not map, and nothing for unknown ones', () => {
    expect(SHIPPED_PROVIDER_CATALOGUE.listModels({ id: 'acme', modelsDevId: 'deepseek' }).length).toBeGreaterThan(0);
    expect(SHIPPED_PROVIDER_CATALOGUE.listModels({ id: 'acme' })).toEqual([]);
  });

  it('finds a model by id or dated snapshot, only under its own provider', () => {
    expect(SHIPPED_PROVIDER_CATALOGUE.hasModel({ id: 'anthropic' }, 'claude-sonnet-4-5-20250929')).toBe(true);
    expect(SHIPPED_PROVIDER_CATALOGUE.hasModel({ id: 'openai' }, 'claude-sonnet-4-5')).toBe(false);
    expect(SHIPPED_PROVIDER_CATALOGUE.hasModel({ id: 'vllm' }, 'gpt-5')).toBe(false);
  });
});
