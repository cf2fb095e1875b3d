import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openWorkspace, verifySiteCredentials, workspaceSites } from '@boxagnts/workspace';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach, runBin } from '../test/run-bin.js';
import { registerSitesCommand } from './sites-command.js';

const cleanups = cleanupsAfterEach();
const here = dirname(fileURLToPath(import.meta.url));

async function workspaceDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-cli-sites-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await (await openWorkspace(dir)).close();
  return dir;
}

/** The bin with a password piped on stdin (runBin closes stdin). */
function binWithStdin(args: readonly string[], input: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['--conditions=@boxagnts/source', '--import', 'tsx', join(here, 'main.ts'), ...args],
    { cwd: join(here, '..', '..'), stdio: ['pipe', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin.end(input);
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

async function credentialsOk(dir: string, user: string, password: string): Promise<boolean> {
  const workspace = await openWorkspace(dir);
  try {
    const credentials = await workspaceSites(workspace).credentials('docs');
    if (credentials === undefined || credentials === 'invalid') return false;
    return verifySiteCredentials(credentials, user, password);
  } finally {
    await workspace.close();
  }
}

/** Runs `boxagnts sites ...` in this process (the bin's own wiring is covered by the two bin runs below). */
async function sitesCli(args: readonly string[]): Promise<{ stdout: string; error: string | undefined }> {
  let stdout = '';
  const program = new Command('boxagnts').exitOverride();
  registerSitesCommand(program, { out: (text) => (stdout += text), err: () => {} });
  try {
    await program.parseAsync(['sites', ...args], { from: 'user' });
    return { stdout, error: undefined };
  } catch (error) {
    return { stdout, error: (error as Error).message };
  }
}

describe('boxagnts sites', () => {
  it('the bin creates a site and takes a password on stdin', async () => {
    const dir = await workspaceDir();
    const created = await runBin(['sites', 'create', 'docs', '--spa', '--dir', dir]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toBe(`docs  http://docs.localhost:7434/  ${join('root', 'sites', 'docs')}  [spa]\n`);
    expect((await stat(join(dir, 'root', 'sites', 'docs'))).isDirectory()).toBe(true);
    const fromStdin = await binWithStdin(
      ['sites', 'auth', 'docs', '--user', 'bob', '--password-stdin', '--dir', dir],
      'piped secret\n',
    );
    expect(fromStdin).toEqual({ code: 0, stderr: '' });
    expect(await credentialsOk(dir, 'bob', 'piped secret')).toBe(true);
  }, 120_000);

  it('auth from the environment, list, clear and delete', async () => {
    const dir = await workspaceDir();
    expect((await sitesCli(['create', 'docs', '--dir', dir])).error).toBeUndefined();
    process.env.BOXAGNTS_TEST_SITE_PW = 'from-the-env';
    try {
      const fromEnv = await sitesCli([
        'auth',
        'docs',
        '--user',
        'alice',
        '--password-env',
        'BOXAGNTS_TEST_SITE_PW',
        '--dir',
        dir,
      ]);
      expect(fromEnv.stdout).toBe('docs: login required (user alice)\n');
    } finally {
      delete process.env.BOXAGNTS_TEST_SITE_PW;
    }
    expect(await readFile(join(dir, '.boxagnts', 'secrets.json'), 'utf8')).not.toContain('from-the-env');
    expect(await credentialsOk(dir, 'alice', 'from-the-env')).toBe(true);
    const listed = await sitesCli(['list', '--json', '--dir', dir]);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        name: 'docs',
        url: 'http://docs.localhost:7434/',
        auth: { user: 'alice' },
        spa: false,
      }),
    ]);
    expect((await sitesCli(['list', '--dir', dir])).stdout).toBe(
      `docs  http://docs.localhost:7434/  ${join('root', 'sites', 'docs')}  [login: alice]\n`,
    );
    expect((await sitesCli(['auth', 'docs', '--clear', '--dir', dir])).stdout).toBe('docs: login removed\n');
    expect(await credentialsOk(dir, 'alice', 'from-the-env')).toBe(false);
    expect((await sitesCli(['delete', 'docs', '--dir', dir])).stdout).toBe('deleted docs\n');
    await expect(stat(join(dir, 'root', 'sites', 'docs'))).rejects.toThrow(/ENOENT/);
    expect((await sitesCli(['list', '--dir', dir])).stdout).toMatch(/^no sites yet/);
  });

  it('refuses a bad name, a password on the command line and a missing site with a clear message', async () => {
    const dir = await workspaceDir();
    expect((await sitesCli(['create', '../escape', '--dir', dir])).error).toMatch(
      /^"\.\.\/escape" is not a site name: use 1-63 lowercase letters/,
    );
    expect((await sitesCli(['auth', 'docs', '--user', 'alice', '--dir', dir])).error).toMatch(
      /--password-stdin or --password-env <VAR> \(never on the command line/,
    );
    expect((await sitesCli(['auth', 'docs', '--clear', '--dir', dir])).error).toMatch(/there is no site "docs"/);
    expect((await sitesCli(['delete', 'docs', '--dir', dir])).error).toMatch(/There is no site "docs"/);
    expect((await sitesCli(['list', '--dir', join(dir, 'nope')])).error).toMatch(/no workspace in/);
  });
});
