import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from './build-catalogue.js';
import { shippedCataloguePath, smallModelsDev } from './catalogue.test.helpers.js';
import type { Catalogue } from './catalogue-types.js';
import { parseCatalogue } from './parse-catalogue.js';
import { serializeCatalogue } from './serialize-catalogue.js';

describe('serializeCatalogue', () => {
  it('writes one row per line in a fixed order, whatever order the input had', () => {
    const catalogue = buildCatalogue(smallModelsDev());
    const shuffled: Catalogue = {
      ...catalogue,
      providers: [...catalogue.providers].reverse(),
      models: [...catalogue.models].reverse().map((model) => {
        // Same values, keys in another order.
        const entries = Object.entries(model).reverse();
        return Object.fromEntries(entries) as unknown as typeof model;
      }),
    };
    const text = serializeCatalogue(catalogue);
    expect(serializeCatalogue(shuffled)).toBe(text);
    expect(text.split('\n')).toEqual([
      '{',
      '  "format": "boxagnts-model-catalogue",',
      '  "version": 1,',
      '  "source": "models.dev",',
      '  "providers": [',
      '    {"id":"anthropic","name":"Anthropic","env":["ANTHROPIC_API_KEY"],"doc":"https://docs.anthropic.com/en/docs/about-claude/models"},',
      '    {"id":"google","name":"Google","env":["GEMINI_API_KEY"],"doc":"https://ai.google.dev/gemini-api/docs/models"}',
      '  ],',
      '  "models": [',
      '    {"provider":"anthropic","id":"claude-test-4-5","name":"Claude Test 4.5 (latest)","family":"test","aliases":["claude-test-4-5-20250929"],"contextWindow":100000,"maxOutput":8000,"price":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75},"input":["text"],"output":["text"],"reasoning":false,"toolCall":true,"attachment":false,"temperature":true,"releaseDate":"2025-01-01"},',
      '    {"provider":"google","id":"gemini-test-pro","name":"GEMINI-TEST-PRO","family":"test","contextWindow":1048576,"maxOutput":65536,"price":{"input":1.25,"output":10,"cacheRead":0.125,"tiers":[{"inputAbove":200000,"input":2.5,"output":15}]},"input":["text","image","pdf"],"output":["text"],"reasoning":true,"toolCall":true,"attachment":false,"temperature":true,"releaseDate":"2025-01-01"}',
      '  ]',
      '}',
      '',
    ]);
  });

  it('writes empty lists on one line', () => {
    const empty: Catalogue = { format: 'boxagnts-model-catalogue', version: 1, source: 'x', providers: [], models: [] };
    expect(serializeCatalogue(empty)).toBe(
      '{\n  "format": "boxagnts-model-catalogue",\n  "version": 1,\n  "source": "x",\n  "providers": [],\n  "models": []\n}\n',
    );
  });
});

describe('parseCatalogue', () => {
  it('reads back what serializeCatalogue wrote, byte for byte (the shipped file included)', () => {
    const text = serializeCatalogue(buildCatalogue(smallModelsDev()));
    expect(serializeCatalogue(parseCatalogue(JSON.parse(text)))).toBe(text);
    const shipped = readFileSync(shippedCataloguePath, 'utf8');
    expect(serializeCatalogue(parseCatalogue(JSON.parse(shipped)))).toBe(shipped);
  });

  it('rejects a file that is not a catalogue, naming the problem', () => {
    expect(() => parseCatalogue({ format: 'other' })).toThrow(
      /^Not a BoxAgnts model catalogue \(version 1\): format: /,
    );
    const catalogue = buildCatalogue(smallModelsDev());
    const negative = { ...catalogue, models: [{ ...catalogue.models[0], price: { input: -1, output: 1 } }] };
    expect(() => parseCatalogue(negative)).toThrow(/models\.0\.price\.input/);
    const extra = { ...catalogue, models: [{ ...catalogue.models[0], surprise: true }] };
    expect(() => parseCatalogue(extra)).toThrow(/models\.0/);
  });
});
