import { openWorkspace } from '@boxagnts/workspace';
import { describe, expect, it } from 'vitest';
import {
  ENV_CANARY,
  expectCleanFailure,
  MANY_PROCESSES,
  manageCommandsSupport,
} from '../test/manage-commands-support.js';
import { CANARY_KEY } from '../test/test-workspace.js';

const { cli, workspace } = manageCommandsSupport();

describe('boxagnts providers and models', () => {
  it(
    'reports set / from environment / missing and never prints either canary key',
    async () => {
      const dir = await workspace();
      const opened = await openWorkspace(dir);
      await opened.secrets.set('anthropic', CANARY_KEY);
      await opened.close();
      const env = { OPENAI_API_KEY: ENV_CANARY };
      const json = await cli(['providers', '--dir', dir, '--json'], { env });
      expect(json.code).toBe(0);
      const rows = JSON.parse(json.stdout) as { id: string; key: string; from?: string; hint?: string }[];
      expect(rows.find((row) => row.id === 'anthropic')).toMatchObject({ key: 'set', from: 'secret:anthropic' });
      expect(rows.find((row) => row.id === 'openai')).toMatchObject({ key: 'environment', from: 'env:OPENAI_API_KEY' });
      expect(rows.find((row) => row.id === 'mistral')).toMatchObject({ key: 'missing' });
      expect(rows.find((row) => row.id === 'mistral')?.hint).toContain('MISTRAL_API_KEY');
      const text = await cli(['providers', '--dir', dir], { env });
      expect(text.stdout).toMatch(/openai\s+from environment/);
      for (const result of [json, text]) {
        expect(`${result.stdout}${result.stderr}`).not.toContain(CANARY_KEY);
        expect(`${result.stdout}${result.stderr}`).not.toContain(ENV_CANARY);
        expect(`${result.stdout}${result.stderr}`).not.toContain('9f8e7d6c5b4a');
      }
    },
    MANY_PROCESSES,
  );

  it(
    'follows a config key reference: a missing secret is reported missing with its name',
    async () => {
      const dir = await workspace();
      const set = await cli([
        'config',
        'set',
        'providers.anthropic.apiKey',
        '{"secret":"work-anthropic"}',
        '--dir',
        dir,
      ]);
      expect(set.stderr).toBe('');
      const before = JSON.parse((await cli(['providers', '--dir', dir, '--json'])).stdout) as { id: string }[];
      expect(before.find((row) => row.id === 'anthropic')).toMatchObject({ key: 'missing' });
      const opened = await openWorkspace(dir);
      await opened.secrets.set('work-anthropic', CANARY_KEY);
      await opened.close();
      const after = await cli(['providers', '--dir', dir, '--json']);
      expect((JSON.parse(after.stdout) as { id: string }[]).find((row) => row.id === 'anthropic')).toMatchObject({
        key: 'set',
        from: 'secret:work-anthropic',
      });
      expect(after.stdout).not.toContain(CANARY_KEY);
    },
    MANY_PROCESSES,
  );

  it(
    'lists models with context window and prices, and refuses an unknown provider',
    async () => {
      const dir = await workspace();
      const models = await cli(['models', '--provider', 'anthropic', '--dir', dir, '--json']);
      expect(models.code).toBe(0);
      const rows = JSON.parse(models.stdout) as {
        provider: string;
        id: string;
        contextWindow?: number;
        inputPerMillion?: number;
        outputPerMillion?: number;
      }[];
      expect(rows.length).toBeGreaterThan(3);
      expect(rows.every((row) => row.provider === 'anthropic')).toBe(true);
      const priced = rows.find((row) => row.id.startsWith('claude-sonnet-4'));
      expect(priced?.contextWindow).toBeGreaterThan(100_000);
      expect(priced?.inputPerMillion).toBeGreaterThan(0);
      expect(priced?.outputPerMillion).toBeGreaterThan(priced?.inputPerMillion ?? 0);
      const text = await cli(['models', '--provider', 'anthropic', '--dir', dir]);
      expect(text.stdout).toMatch(/anthropic\/claude-\S+ {2}context \d+ {2}in \$[\d.]+ {2}out \$[\d.]+ per 1M/);
      expectCleanFailure(
        await cli(['models', '--provider', 'nope', '--dir', dir]),
        /unknown provider "nope".*providers/,
      );
    },
    MANY_PROCESSES,
  );

  it(
    'ends quietly when the reader closes the pipe early',
    async () => {
      const dir = await workspace();
      const result = await cli(['models', '--dir', dir], { closeStdout: true });
      expect(result.stderr).not.toContain('EPIPE');
      expect(result.code).toBe(0);
    },
    MANY_PROCESSES,
  );
});
