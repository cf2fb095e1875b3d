import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCatalogue, collapseSnapshotAliases } from './build-catalogue.js';
import {
  modelsDevModel,
  modelsDevSkipReason,
  modelsDevSnapshotPath,
  shippedCataloguePath,
  smallModelsDev,
} from './catalogue.test.helpers.js';
import type { CatalogueModel } from './catalogue-types.js';
import { serializeCatalogue } from './serialize-catalogue.js';

describe('buildCatalogue', () => {
  it('keeps the shipped providers only and writes the compact rows', () => {
    const catalogue = buildCatalogue(smallModelsDev());
    expect(catalogue.providers.map((provider) => provider.id)).toEqual(['anthropic', 'google']);
    expect(catalogue.providers[0]).toEqual({
      id: 'anthropic',
      name: 'Anthropic',
      env: ['ANTHROPIC_API_KEY'],
      doc: 'https://docs.anthropic.com/en/docs/about-claude/models',
    });
    expect(catalogue.models.find((model) => model.id === 'gemini-test-pro')).toEqual({
      provider: 'google',
      id: 'gemini-test-pro',
      name: 'GEMINI-TEST-PRO',
      family: 'test',
      contextWindow: 1_048_576,
      maxOutput: 65_536,
      price: { input: 1.25, output: 10, cacheRead: 0.125, tiers: [{ inputAbove: 200_000, input: 2.5, output: 15 }] },
      input: ['text', 'image', 'pdf'], // the unknown modality "hologram" is dropped
      output: ['text'],
      reasoning: true,
      toolCall: true,
      attachment: false,
      temperature: true,
      releaseDate: '2025-01-01',
    });
  });

  it('folds an identical dated snapshot into an alias of its undated row', () => {
    const anthropic = buildCatalogue(smallModelsDev()).models.filter((model) => model.provider === 'anthropic');
    expect(anthropic.map((model) => [model.id, model.name, model.aliases])).toEqual([
      ['claude-test-4-5', 'Claude Test 4.5 (latest)', ['claude-test-4-5-20250929']],
    ]);
  });

  it('keeps a snapshot that differs from its undated row as a row of its own', () => {
    const base = { provider: 'openai', name: 'x', input: ['text'], output: ['text'] } as const;
    const row = (id: string, input: number): CatalogueModel => ({
      ...base,
      input: [...base.input],
      output: [...base.output],
      id,
      price: { input, output: 10 },
      reasoning: false,
      toolCall: true,
      attachment: false,
    });
    const collapsed = collapseSnapshotAliases([
      row('gpt-4o', 2.5),
      row('gpt-4o-2024-05-13', 5),
      row('gpt-4o-latest', 2.5),
    ]);
    expect(collapsed.map((model) => [model.id, model.aliases])).toEqual([
      ['gpt-4o', ['gpt-4o-latest']],
      ['gpt-4o-2024-05-13', undefined],
    ]);
  });

  it('reads both spellings of long-context tiers and the object form of tool_call', () => {
    const catalogue = buildCatalogue(
      {
        openai: {
          name: 'OpenAI',
          env: ['OPENAI_API_KEY'],
          models: {
            'gpt-test': modelsDevModel('gpt-test', {
              tool_call: { supported: false, streaming: true },
              interleaved: { field: 'reasoning_content' },
              status: 'deprecated',
              cost: {
                input: 5,
                output: 30,
                cache_read: 0.5,
                context_over_200k: { input: 10, output: 45, cache_read: 1 },
                tiers: [
                  { input: 12, output: 50, tier: { type: 'context', size: 272_000 } },
                  { input: 99, output: 99, tier: { type: 'output', size: 1 } },
                ],
              },
              limit: { context: 400_000, input: 272_000, output: 128_000 },
            }),
          },
        },
      },
      { providers: ['openai'] },
    );
    expect(catalogue.models[0]).toMatchObject({
      toolCall: false,
      interleavedReasoning: 'reasoning_content',
      status: 'deprecated',
      maxInput: 272_000,
      price: {
        tiers: [
          { inputAbove: 200_000, input: 10, output: 45, cacheRead: 1 },
          { inputAbove: 272_000, input: 12, output: 50 },
        ],
      },
    });
  });

  it('skips an invalid model with a warning and says which providers are missing', () => {
    const source = smallModelsDev();
    (source.google as { models: Record<string, unknown> }).models.broken = { id: 'broken', name: 'Broken' };
    const warnings: string[] = [];
    const catalogue = buildCatalogue(source, { providers: ['google', 'deepseek'], onWarning: (m) => warnings.push(m) });
    expect(catalogue.models.map((model) => model.id)).toEqual(['gemini-test-pro']);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^skipped model google\/broken: /);
    expect(warnings[1]).toBe('models.dev has no provider "deepseek"');
  });

  it('keeps every provider with providers: "all"', () => {
    const catalogue = buildCatalogue(smallModelsDev(), { providers: 'all' });
    expect(catalogue.providers.map((provider) => provider.id)).toEqual(['anthropic', 'google', 'not-shipped']);
  });

  it('refuses input that is not models.dev', () => {
    expect(() => buildCatalogue([])).toThrow('Not a models.dev api.json');
    expect(() => buildCatalogue({ something: { else: true } })).toThrow(
      /No models found for the providers anthropic, /,
    );
  });
});

describe.skipIf(!modelsDevSnapshotPath)(`the shipped catalogue (${modelsDevSkipReason})`, () => {
  it('is exactly what the build script makes from ../shared/data/models.dev-api.json', () => {
    const source = JSON.parse(readFileSync(modelsDevSnapshotPath as string, 'utf8')) as unknown;
    const warnings: string[] = [];
    const built = buildCatalogue(source, { onWarning: (message) => warnings.push(message) });
    const shippedText = readFileSync(shippedCataloguePath, 'utf8');
    expect(JSON.parse(shippedText)).toEqual(built);
    expect(serializeCatalogue(built)).toBe(shippedText);
    expect(warnings).toEqual([]);
  });
});
