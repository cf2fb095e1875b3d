import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openWorkspace } from '@boxagnts/workspace';
import { describe, expect, it } from 'vitest';
import { expectCleanFailure, MANY_PROCESSES, manageCommandsSupport } from '../test/manage-commands-support.js';
import { CANARY_KEY } from '../test/test-workspace.js';

const { cli, workspace } = manageCommandsSupport();

describe('boxagnts config', () => {
  it(
    'sets JSON values and strings, gets them back with defaults filled in, and keeps comments',
    async () => {
      const dir = await workspace();
      const model = await cli(['config', 'set', 'model', 'openai/gpt-5', '--dir', dir]);
      expect(model.stdout).toBe('model = "openai/gpt-5"\n');
      expect((await cli(['config', 'get', 'model', '--dir', dir])).stdout).toBe('openai/gpt-5\n');
      const port = await cli(['config', 'set', 'gateway.port', '8123', '--dir', dir, '--json']);
      expect(JSON.parse(port.stdout)).toEqual({ path: 'gateway.port', value: 8123 });
      const gateway = await cli(['config', 'get', 'gateway', '--dir', dir, '--json']);
      expect(JSON.parse(gateway.stdout)).toMatchObject({ port: 8123, host: '127.0.0.1' });
      expect(await readFile(join(dir, 'boxagnts.json'), 'utf8')).toContain('//');
      expect((await cli(['config', 'validate', '--dir', dir])).code).toBe(0);
    },
    MANY_PROCESSES,
  );

  it(
    'applies every one of eight concurrent config sets, and takes over a lock left by a dead process',
    async () => {
      const dir = await workspace();
      const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
      const results = await Promise.all(
        names.map((name) =>
          cli([
            'config',
            'set',
            `agents.${name}`,
            `{"description":"agent ${name}","access":"read-only"}`,
            '--dir',
            dir,
          ]),
        ),
      );
      for (const result of results) expect(result.stderr).toBe('');
      const agents = JSON.parse((await cli(['config', 'get', 'agents', '--dir', dir, '--json'])).stdout) as Record<
        string,
        { description?: string }
      >;
      for (const name of names) expect(agents[name]?.description).toBe(`agent ${name}`);
      const gone = spawn(process.execPath, ['-e', '']);
      await new Promise((resolve) => gone.once('close', resolve));
      await writeFile(join(dir, '.boxagnts', 'config.lock'), String(gone.pid));
      const after = await cli(['config', 'set', 'model', 'openai/gpt-5', '--dir', dir]);
      expect(after.stderr).toBe('');
      expect(after.code).toBe(0);
      await expect(readFile(join(dir, '.boxagnts', 'config.lock'), 'utf8')).rejects.toThrow();
    },
    MANY_PROCESSES,
  );

  it(
    'refuses a raw key without printing it or writing it, with a hint to use the secrets file',
    async () => {
      const dir = await workspace();
      const before = await readFile(join(dir, 'boxagnts.json'), 'utf8');
      for (const [path, value] of [
        ['providers.anthropic.apiKey', CANARY_KEY],
        ['providers.anthropic.apiKey', 'plain-words-not-shaped-like-a-key'],
        ['providers.anthropic.baseUrl', CANARY_KEY],
        ['agents.build.description', `use ${CANARY_KEY}`.slice(4)],
        ['mcpServers', JSON.stringify({ x: { command: 'run', env: { TOKEN: CANARY_KEY } } })],
      ] as const) {
        const result = await cli(['config', 'set', path, value, '--dir', dir]);
        expectCleanFailure(result, /secrets file .*secrets\.json.*\{"secret":/);
        expect(`${result.stdout}${result.stderr}`).not.toContain(CANARY_KEY);
      }
      expect(await readFile(join(dir, 'boxagnts.json'), 'utf8')).toBe(before);
      const opened = await openWorkspace(dir);
      await opened.secrets.set('stored', 'an-ordinary-looking-value');
      await opened.close();
      const stored = await cli([
        'config',
        'set',
        'agents.build.description',
        'an-ordinary-looking-value',
        '--dir',
        dir,
      ]);
      expectCleanFailure(stored, /looks like a key/);
      expect(stored.stderr).not.toContain('an-ordinary-looking-value');
    },
    MANY_PROCESSES,
  );

  it(
    'refuses bad paths and invalid values with clear messages',
    async () => {
      const dir = await workspace();
      expectCleanFailure(
        await cli(['config', 'get', 'no.such.field', '--dir', dir]),
        /no config value at "no.such.field"; the config has: .*model/,
      );
      expectCleanFailure(await cli(['config', 'get', 'model..x', '--dir', dir]), /bad config path/);
      expectCleanFailure(await cli(['config', 'get', '__proto__', '--dir', dir]), /not a config field/);
      expectCleanFailure(
        await cli(['config', 'set', 'constructor.prototype.x', '1', '--dir', dir]),
        /not a config field/,
      );
      expectCleanFailure(await cli(['config', 'set', 'gateway.port', '"not a port"', '--dir', dir]), /gateway\.port/);
      expectCleanFailure(
        await cli(['config', 'set', 'gateway.port', '8123', 'extra', '--dir', dir]),
        /too many arguments/,
      );
      expect((await cli(['config', 'validate', '--dir', dir])).code).toBe(0);
    },
    MANY_PROCESSES,
  );

  it(
    'validate exits 1 with the ConfigError message for a broken or invalid file',
    async () => {
      const dir = await workspace();
      await writeFile(join(dir, 'boxagnts.json'), '{ "model": 42 ');
      const broken = await cli(['config', 'validate', '--dir', dir]);
      expectCleanFailure(broken, /invalid: .*boxagnts\.json:1:\d+/);
      await writeFile(join(dir, 'boxagnts.json'), '{ "gateway": { "port": "x" } }');
      const json = await cli(['config', 'validate', '--dir', dir, '--json']);
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({ valid: false, reason: 'schema' });
      expect(JSON.parse(json.stdout).message).toContain('gateway.port');
      await writeFile(join(dir, 'boxagnts.json'), '{}');
      expect(JSON.parse((await cli(['config', 'validate', '--dir', dir, '--json'])).stdout)).toMatchObject({
        valid: true,
      });
    },
    MANY_PROCESSES,
  );
});
