import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWorkspace } from '@boxagnts/workspace';
import { describe, expect, it } from 'vitest';
import { expectCleanFailure, MANY_PROCESSES, manageCommandsSupport } from '../test/manage-commands-support.js';

const { cleanups, cli, workspace, workspaceWithSessions } = manageCommandsSupport();

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
