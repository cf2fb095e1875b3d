import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '@boxagnts/testkit';
import { openWorkspace } from '@boxagnts/workspace';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach, runBin } from '../test/run-bin.js';
import { CANARY_KEY } from '../test/test-workspace.js';
import { registerCronCommand } from './cron-command.js';

const cleanups = cleanupsAfterEach();

/** Each case starts several real bins (a second or more each under tsx on a loaded machine). */
const MANY_PROCESSES = 180_000;

async function workspace(script: object = { steps: [{ text: 'Report written.' }], repeatLast: true }) {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-cli-cron-'));
  const mock = await startMockServer({ script: script as never });
  cleanups.push(async () => {
    await mock.close();
    await rm(dir, { recursive: true, force: true });
  });
  // What `boxagnts init` does, in process (a bin start costs seconds on a loaded machine).
  await (await openWorkspace(dir)).close();
  await writeFile(
    join(dir, 'boxagnts.json'),
    JSON.stringify({ providers: { anthropic: { baseUrl: mock.url, apiKey: { secret: 'anthropic' } } } }),
  );
  const opened = await openWorkspace(dir);
  await opened.secrets.set('anthropic', CANARY_KEY);
  await opened.close();
  return dir;
}

describe('boxagnts cron', () => {
  it(
    'adds, lists, previews, updates, disables, enables and removes jobs; BoxAgnts cron.config.json imports as it is',
    async () => {
      const dir = await workspace();
      // In process, through the same command definitions the bin registers (a bin start costs seconds here).
      const cron = async (...args: string[]) => {
        let out = '';
        const program = new Command('boxagnts').exitOverride();
        registerCronCommand(program, { out: (text) => (out += text), err: (text) => (out += text) });
        await program.parseAsync(['cron', ...args, '--dir', dir], { from: 'user' });
        return out;
      };
      const refusal = (...args: string[]) =>
        cron(...args).then(
          () => {
            throw new Error('expected the command to fail');
          },
          (error: Error) => error.message,
        );
      const added = JSON.parse(
        await cron(
          'add',
          'morning report',
          '--cron',
          '0 9 * * 1-5',
          '--prompt',
          'Write the report.',
          '--timezone',
          'Europe/Berlin',
          '--timeout',
          '600',
          '--overlap',
          'queue',
          '--json',
        ),
      );
      expect(added).toMatchObject({
        name: 'morning report',
        timezone: 'Europe/Berlin',
        timeoutMs: 600_000,
        overlap: 'queue',
      });
      // BoxAgnts' own file: a map of id to job, six fields seconds first, timeout in seconds.
      const file = join(dir, 'cron.config.json');
      await writeFile(
        file,
        JSON.stringify({
          'job-1': {
            id: 'job-1',
            name: 'quality',
            description: 'code quality',
            cron: '0 30 8 * * *',
            prompt: 'Check the code.',
            model: null,
            timeout: 120,
            enabled: true,
          },
        }),
      );
      expect(await cron('add', '--file', file)).toContain('quality  0 30 8 * * * (UTC)');

      // The real bin, once: the command is wired into `boxagnts`.
      const bin = await runBin(['cron', 'list', '--dir', dir, '--json']);
      expect(bin.code).toBe(0);
      const list = JSON.parse(bin.stdout) as { name: string; nextRunAt?: number }[];
      expect(list.map((job) => job.name)).toEqual(['morning report', 'quality']);
      expect(list.every((job) => typeof job.nextRunAt === 'number')).toBe(true);

      const next = await cron('next', '30 2 * * *', '--timezone', 'Europe/Berlin', '-n', '3');
      expect(next.trim().split('\n')).toHaveLength(3);
      expect(next).toMatch(/^\d{4}-\d\d-\d\dT0[23]:[03]0:00\+0[12]:00 {2}\(/m);
      expect(JSON.parse(await cron('next', 'quality', '-n', '1', '--json'))[0].local).toMatch(/T08:30:00\+00:00$/);

      expect(await refusal('add', 'x', '--cron', '0 9 * *', '--prompt', 'p')).toContain('has 4 fields');
      expect(await refusal('add', 'x', '--cron', '0 9 * * *')).toContain('give a name, --cron');
      expect(await refusal('update', 'quality', '--timezone', 'Mars/Olympus')).toContain(
        'Unknown time zone "Mars/Olympus"',
      );
      expect(await refusal('update', 'quality', '--overlap', 'sometimes')).toContain(
        'Allowed choices are skip, allow, queue',
      );
      expect(await refusal('add', '--file', join(dir, 'missing.json'))).toContain('not a file');

      const updated = JSON.parse(await cron('update', 'quality', '--catch-up', 'run-once', '--json'));
      expect(updated).toMatchObject({ id: 'job-1', catchUp: 'run-once', timeoutMs: 120_000 });
      expect(await cron('disable', 'quality')).toContain('disabled');
      expect(await cron('enable', 'quality')).toContain('next ');
      expect(await cron('log', 'quality')).toBe('no runs yet\n');
      expect(await cron('remove', 'job-1')).toBe('removed quality\n');
      expect(await refusal('enable', 'quality')).toContain('no cron job "quality"');
    },
    MANY_PROCESSES,
  );

  it(
    'run fires a job now through the run manager and prints its log entry; the log shows it',
    async () => {
      const dir = await workspace();
      const opened = await openWorkspace(dir);
      const job = await opened.store.cron.create({ name: 'now', cron: '0 9 * * *', prompt: 'Write it.' });
      await opened.close();
      const run = await runBin(['cron', 'run', 'now', '--dir', dir, '--json']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const entry = JSON.parse(run.stdout) as { status: string; outcome: string; sessionId: string; trigger: string };
      expect(entry).toMatchObject({ status: 'success', outcome: 'end_turn', trigger: 'manual' });
      expect(entry.sessionId).toMatch(new RegExp(`^cron-${job.id}-`));
      let log = '';
      const program = new Command('boxagnts').exitOverride();
      registerCronCommand(program, { out: (text) => (log += text), err: (text) => (log += text) });
      await program.parseAsync(['cron', 'log', 'now', '--dir', dir], { from: 'user' });
      expect(log).toContain('manual  success  end_turn');
    },
    MANY_PROCESSES,
  );
});
