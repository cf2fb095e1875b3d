import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Test helpers of the catalogue module: a small models.dev-shaped source and the paths of the real one.

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The shipped catalogue file. */
export const shippedCataloguePath = join(packageDir, 'src', 'catalogue', 'data', 'catalogue.json');

/** The build script. */
export const buildScriptPath = join(packageDir, 'scripts', 'build-catalogue.ts');

/** The package's `tsx` binary (a devDependency), to run the script as a child process. */
export const tsxPath = join(packageDir, 'node_modules', '.bin', 'tsx');

/** `../shared/data/models.dev-api.json` beside the repository, or undefined where it is absent. */
export const modelsDevSnapshotPath: string | undefined = (() => {
  const path = resolve(packageDir, '../../../shared/data/models.dev-api.json');
  return existsSync(path) ? path : undefined;
})();

/** Why tests that need the models.dev snapshot are skipped on this machine. */
export const modelsDevSkipReason = 'skipped: ../shared/data/models.dev-api.json is not beside this clone';

/** One models.dev model with the required fields; `overrides` replaces any of them. */
export function modelsDevModel(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    name: id.toUpperCase(),
    family: 'test',
    attachment: false,
    reasoning: false,
    tool_call: true,
    temperature: true,
    release_date: '2025-01-01',
    last_updated: '2025-01-01',
    modalities: { input: ['text'], output: ['text'] },
    open_weights: false,
    cost: { input: 1, output: 2 },
    limit: { context: 100_000, output: 8_000 },
    ...overrides,
  };
}

/** A small models.dev `api.json`: two shipped providers and one that is not shipped. */
export function smallModelsDev(): Record<string, unknown> {
  return {
    anthropic: {
      id: 'anthropic',
      env: ['ANTHROPIC_API_KEY'],
      npm: '@ai-sdk/anthropic',
      name: 'Anthropic',
      doc: 'https://docs.anthropic.com/en/docs/about-claude/models',
      models: {
        'claude-test-4-5': modelsDevModel('claude-test-4-5', {
          name: 'Claude Test 4.5 (latest)',
          cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
        }),
        'claude-test-4-5-20250929': modelsDevModel('claude-test-4-5-20250929', {
          name: 'Claude Test 4.5',
          release_date: '2025-09-29',
          cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
        }),
      },
    },
    google: {
      id: 'google',
      env: ['GEMINI_API_KEY'],
      npm: '@ai-sdk/google',
      name: 'Google',
      doc: 'https://ai.google.dev/gemini-api/docs/models',
      models: {
        'gemini-test-pro': modelsDevModel('gemini-test-pro', {
          reasoning: true,
          modalities: { input: ['text', 'image', 'pdf', 'hologram'], output: ['text'] },
          cost: { input: 1.25, output: 10, cache_read: 0.125, context_over_200k: { input: 2.5, output: 15 } },
          limit: { context: 1_048_576, output: 65_536 },
        }),
      },
    },
    'not-shipped': {
      id: 'not-shipped',
      env: [],
      npm: 'x',
      name: 'Not shipped',
      doc: 'https://example.com',
      models: { other: modelsDevModel('other') },
    },
  };
}
