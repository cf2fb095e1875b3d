import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWorkspace } from '@boxagnts/workspace';
import { describe, expect, it } from 'vitest';
import { type BinResult, cleanupsAfterEach, runBin } from '../test/run-bin.js';
import { CANARY_KEY } from '../test/test-workspace.js';

const cleanups = cleanupsAfterEach();
const cli = runBin;

/** Each case starts several real bins (about a second each under tsx): a generous per-test limit. */
const MANY_PROCESSES = 180_000;

/** A second canary, given through the environment only. */
const ENV_CANARY = 'sk-envcanary-0a1b2c3d4e5f60718293';

/** A failure as users should see it: exit 1, one clear line on stderr, no stack trace. */
function expectCleanFailure(result: BinResult, message: string | RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr).not.toContain('node:internal');
}

async function workspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-cli-manage-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const init = await cli(['init', dir]);
  expect(init.code).toBe(0);
  return dir;
}

async function workspaceWithSessions(): Promise<string> {
  const dir = await workspace();
  const opened = await openWorkspace(dir);
  try {
    await opened.store.sessions.create({ id: 'zoo', title: 'Zoo trip' });
    await opened.store.sessions.append('zoo', [
      { message: { role: 'user', content: 'Rename zebra.txt to okapi.txt' } },
      { message: { role: 'assistant', content: [{ type: 'text', text: 'Renamed it.' }] } },
      { message: { role: 'user', content: 'Now list the animals.' } },
    ]);
    await opened.store.sessions.create({ id: 'empty', title: 'Nothing yet' });
  } finally {
    await opened.close();
  }
  return dir;
}

describe('boxagnts sessions', () => {
  it(
    'lists, shows, renames, forks, searches, exports, imports and deletes through the bin',
    async () => {
      const dir = await workspaceWithSessions();
      const list = await cli(['sessions', 'list', '--dir', dir, '--json']);
      expect(list.code).toBe(0);
      const listed = JSON.parse(list.stdout) as { id: string; messageCount: number }[];
      expect(listed.map((session) => session.id).sort()).toEqual(['empty', 'zoo']);
      expect(listed.find((session) => session.id === 'zoo')?.messageCount).toBe(3);

      const bare = await cli(['sessions', '--dir', dir]);
      expect(bare.code).toBe(0);
      expect(bare.stdout).toContain('Zoo trip');

      const show = await cli(['sessions', 'show', 'zoo', '--dir', dir]);
      expect(show.code).toBe(0);
      expect(show.stdout).toContain('1. user: Rename zebra.txt to okapi.txt');
      expect(show.stdout).toContain('2. assistant: Renamed it.');

      const rename = await cli(['sessions', 'rename', 'zoo', 'Okapi work', '--dir', dir, '--json']);
      expect(rename.code).toBe(0);
      expect(JSON.parse(rename.stdout).title).toBe('Okapi work');

      const fork = await cli(['sessions', 'fork', 'zoo', '2', '--dir', dir, '--json']);
      expect(fork.code).toBe(0);
      const forked = JSON.parse(fork.stdout) as { id: string; messageCount: number; parentSessionId: string };
      expect(forked).toMatchObject({ messageCount: 2, parentSessionId: 'zoo' });

      const search = await cli(['sessions', 'search', 'okapi', '--dir', dir, '--json']);
      expect(search.code).toBe(0);
      const hits = JSON.parse(search.stdout) as { sessionId: string; seq: number }[];
      expect(hits.some((hit) => hit.sessionId === 'zoo' && hit.seq === 1)).toBe(true);

      const exported = await cli(['sessions', 'export', 'zoo', '--dir', dir]);
      expect(exported.code).toBe(0);
      expect(exported.stdout.trim().split('\n')).toHaveLength(4);
      const file = join(dir, 'zoo.jsonl');
      await writeFile(file, exported.stdout);
      const imported = await cli(['sessions', 'import', file, '--id', 'zoo-copy', '--dir', dir, '--json']);
      expect(imported.stderr).toBe('');
      expect(JSON.parse(imported.stdout)).toMatchObject({ id: 'zoo-copy', messageCount: 3 });

      const deleted = await cli(['sessions', 'delete', 'zoo', '--dir', dir]);
      expect(deleted.code).toBe(0);
      const after = await cli(['sessions', 'list', '--dir', dir, '--json']);
      expect((JSON.parse(after.stdout) as { id: string }[]).map((session) => session.id)).not.toContain('zoo');
    },
    MANY_PROCESSES,
  );

  it(
    'refuses an unknown session id, a bad sequence number and a hostile import with a clear message',
    async () => {
      const dir = await workspaceWithSessions();
      for (const args of [
        ['show', 'no-such'],
        ['rename', 'no-such', 'x'],
        ['fork', 'no-such', '1'],
        ['delete', 'no-such'],
        ['export', 'no-such'],
      ]) {
        expectCleanFailure(await cli(['sessions', ...args, '--dir', dir]), /no session "no-such".*sessions list/);
      }
      expectCleanFailure(await cli(['sessions', 'fork', 'zoo', '9', '--dir', dir]), /has 3 messages.*1 to 3/);
      expectCleanFailure(await cli(['sessions', 'fork', 'zoo', '-1', '--dir', dir]), /error/);
      expectCleanFailure(await cli(['sessions', 'fork', 'zoo', '1.5', '--dir', dir]), /message number/);
      const garbage = join(dir, 'garbage.jsonl');
      await writeFile(garbage, '{"not": "a session export"}\n\u0000\u0001 not json at all\n');
      expectCleanFailure(await cli(['sessions', 'import', garbage, '--dir', dir]), /boxagnts: .+/);
      expectCleanFailure(await cli(['sessions', 'import', join(dir, 'missing.jsonl'), '--dir', dir]), /not a file/);
      expectCleanFailure(await cli(['sessions', 'import', dir, '--dir', dir]), /not a file/);
      const untouched = await cli(['sessions', 'list', '--dir', dir, '--json']);
      expect((JSON.parse(untouched.stdout) as unknown[]).length).toBe(2);
    },
    MANY_PROCESSES,
  );

  it(
    'never passes terminal control sequences of stored titles and messages to the terminal',
    async () => {
      const dir = await workspace();
      const opened = await openWorkspace(dir);
      await opened.store.sessions.create({ id: 'evil', title: 'trip \u001b]0;pwned\u0007 \u009b2J title' });
      await opened.store.sessions.append('evil', [
        { message: { role: 'user', content: 'zebra \u001b[2J\u001b[31m red\nsecond line\r overwrite' } },
      ]);
      await opened.close();
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters (newline allowed).
      const control = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
      for (const args of [['list'], ['show', 'evil'], ['search', 'zebra'], ['rename', 'evil', 'new \u001b[2J name']]) {
        const result = await cli(['sessions', ...args, '--dir', dir]);
        expect(result.code).toBe(0);
        expect(result.stdout).not.toMatch(control);
        expect(result.stdout).toContain('\\u001b');
      }
      const json = await cli(['sessions', 'show', 'evil', '--dir', dir, '--json']);
      expect(JSON.parse(json.stdout).session.title).toBe('new \u001b[2J name');
    },
    MANY_PROCESSES,
  );

  it(
    'refuses a folder without a workspace instead of creating one',
    async () => {
      const parent = await mkdtemp(join(tmpdir(), 'boxagnts-cli-nodir-'));
      cleanups.push(() => rm(parent, { recursive: true, force: true }));
      const missing = join(parent, 'typo');
      for (const args of [['sessions'], ['providers'], ['models'], ['config', 'get', 'model']]) {
        expectCleanFailure(await cli([...args, '--dir', missing]), /no workspace in .*boxagnts init/);
      }
      await expect(readFile(join(missing, 'boxagnts.json'), 'utf8')).rejects.toThrow();
    },
    MANY_PROCESSES,
  );
});

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
