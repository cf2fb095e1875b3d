import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILTIN_PROVIDERS } from '../builtin-providers.js';

// Cross-checks the base URLs of the OpenAI-compatible rows with the models.dev catalogue in
// ../shared/data (where it is beside the clone): a row whose models.dev entry names an `api` URL (the
// Chat Completions base) must use it, unless the row's comment says why not (the vendor's own
// documentation disagrees with models.dev).
const catalogue = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  '..',
  '..',
  '..',
  'shared',
  'data',
  'models.dev-api.json',
);
const present = existsSync(catalogue);
const SKIP = 'skipped: ../shared/data/models.dev-api.json is not beside this clone';

/** Rows that deliberately differ from models.dev, with the reason (see each row's comment). */
const DOCUMENTED_DIFFERENCES: Record<string, string> = {
  upstage: "Upstage's console uses https://api.upstage.ai/v1; models.dev keeps the older /v1/solar",
};

describe.skipIf(!present)(`rows against models.dev${present ? '' : ` (${SKIP})`}`, () => {
  const data = present ? (JSON.parse(readFileSync(catalogue, 'utf8')) as Record<string, { api?: string }>) : {};
  const checked = BUILTIN_PROVIDERS.filter(
    (row) =>
      row.adapter === 'openai-chat' &&
      row.modelsDevId !== undefined &&
      typeof data[row.modelsDevId]?.api === 'string' &&
      !row.baseURL?.includes('{'),
  );

  it('checks a good number of rows', () => {
    expect(checked.length).toBeGreaterThan(15);
  });

  it.each(checked.map((row) => [row.id, row] as const))('%s uses the base URL models.dev lists', (id, row) => {
    const expected = String(data[row.modelsDevId as string]?.api ?? '').replace(/\/+$/, '');
    const actual = (row.baseURL ?? '').replace(/\/+$/, '');
    if (DOCUMENTED_DIFFERENCES[id] !== undefined) {
      expect(actual, `${id} is listed as differing from models.dev`).not.toBe(expected);
      return;
    }
    expect(actual).toBe(expected);
  });
});
