import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWorkspace } from '@boxagnts/workspace';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach, runBin } from '../test/run-bin.js';
import { registerImportCommand } from './import-command.js';

const cleanups = cleanupsAfterEach();
const KEY = 'sk-ant-api03-cli-import-canary-00112233445566778899';

/** A small BoxAgnts workspace in its own formats: settings, auth.json, one session, one cron job. */
async function boxagntsWorkspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-cli-import-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const state = join(dir, '.boxagnts');
  await mkdir(join(state, 'sessions'), { recursive: true });
  await writeFile(
    join(state, 'settings.json'),
    JSON.stringify({
      config: { model: 'moonshotai/kimi-k2', allowed_outbound_hosts: ['https://wttr.in'], mcp_servers: [] },
    }),
  );
  await writeFile(join(state, 'auth.json'), JSON.stringify({ credentials: { anthropic: { type: 'api', key: KEY } } }));
  await writeFile(
    join(state, 'sessions', 's-1.json'),
    JSON.stringify({
      id: 's-1',
      created_at: '2026-04-01T12:00:00Z',
      updated_at: '2026-04-01T12:01:00Z',
      model: 'anthropic/claude-sonnet-4-6',
      title: 'Hello',
      messages: [
        { role: 'user', content: 'Say hello to the axolotl' },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello, axolotl.' }] },
      ],
    }),
  );
  await writeFile(
    join(state, 'cron.config.json'),
    JSON.stringify({
      j1: { id: 'j1', name: 'nightly', description: '', cron: '0 0 2 * * *', enabled: true, prompt: 'Report' },
    }),
  );
  return dir;
}

async function importCli(args: readonly string[]): Promise<{ stdout: string; exitCode: number | undefined }> {
  let stdout = '';
  const program = new Command('boxagnts').exitOverride();
  registerImportCommand(program, { out: (text) => (stdout += text), err: () => {} });
  const before = process.exitCode;
  process.exitCode = undefined;
  try {
    await program.parseAsync(['import', ...args], { from: 'user' });
    return { stdout, exitCode: process.exitCode as number | undefined };
  } finally {
    process.exitCode = before;
  }
}

describe('boxagnts import', () => {
  it('--dry-run --json lists what would change and writes nothing; the import then makes it a workspace of ours', async () => {
    const dir = await boxagntsWorkspace();
    const before = (await readdir(dir)).sort();
    const dry = await importCli([dir, '--dry-run', '--json']);
    const report = JSON.parse(dry.stdout) as {
      dryRun: boolean;
      ok: boolean;
      items: { kind: string; name: string; action: string }[];
    };
    expect(report.dryRun).toBe(true);
    expect(report.items.filter((item) => item.action === 'create').map((item) => `${item.kind}:${item.name}`)).toEqual([
      'config:boxagnts.json',
      'secret:anthropic',
      'session:s-1',
      'cron:j1',
    ]);
    expect((await readdir(dir)).sort()).toEqual(before);

    const done = await importCli([dir]);
    expect(done.exitCode).toBeUndefined();
    expect(done.stdout).toContain('created       session      s-1');
    expect(done.stdout).toContain('model moonshotai/kimi-k2 is moonshot/kimi-k2 here');
    expect(done.stdout).not.toContain(KEY);
    expect(await readFile(join(dir, 'boxagnts.json'), 'utf8')).not.toContain(KEY);
    const workspace = await openWorkspace(dir);
    try {
      expect(workspace.config.model).toBe('moonshot/kimi-k2');
      expect((await workspace.secrets.get('anthropic'))?.reveal()).toBe(KEY);
      expect((await workspace.store.sessions.search('axolotl')).map((hit) => hit.sessionId)).toEqual(['s-1', 's-1']);
    } finally {
      await workspace.close();
    }
    const again = await importCli([dir]);
    expect(again.stdout).toContain('Done:');
    expect(again.stdout).not.toContain('created');
  });

  it('the bin refuses `init` on a BoxAgnts folder naming the import, and imports it', async () => {
    const dir = await boxagntsWorkspace();
    const init = await runBin(['init', dir]);
    expect(init.code).toBe(1);
    expect(init.stderr).toContain(`boxagnts import "${dir}"`);
    const imported = await runBin(['import', dir, '--json']);
    expect(imported.code).toBe(0);
    expect((JSON.parse(imported.stdout) as { ok: boolean }).ok).toBe(true);
  }, 120_000);

  it('refuses a folder without a BoxAgnts workspace, saying what to pass', async () => {
    const dir = await boxagntsWorkspace();
    await expect(importCli([join(dir, '.boxagnts', 'sessions')])).rejects.toThrow(/no BoxAgnts workspace here/);
  });
});
