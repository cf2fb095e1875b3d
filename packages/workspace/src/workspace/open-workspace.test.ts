import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isConfigError } from '../config/config-error.js';
import { DEFAULT_CONFIG_TEXT } from '../config/default-config-text.js';
import { openWorkspace } from './open-workspace.js';
import type { Workspace } from './workspace.js';

describe('openWorkspace', () => {
  let base: string;
  const open: Workspace[] = [];
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'boxagnts-workspace-'));
  });
  afterEach(async () => {
    for (const workspace of open.splice(0)) await workspace.close();
    await rm(base, { recursive: true, force: true });
  });

  async function openTracked(dir: string, options: Parameters<typeof openWorkspace>[1] = {}): Promise<Workspace> {
    const workspace = await openWorkspace(dir, { env: {}, home: join(base, 'home'), ...options });
    open.push(workspace);
    return workspace;
  }

  it('creates a complete workspace in an empty folder', async () => {
    const dir = join(base, 'fresh');
    const workspace = await openTracked(dir);
    expect((await readdir(dir)).sort()).toEqual(
      ['.boxagnts', 'AGENTS.md', 'boxagnts.json', 'root', 'sites', 'skills', 'tools'].sort(),
    );
    expect(await readFile(join(dir, 'boxagnts.json'), 'utf8')).toBe(DEFAULT_CONFIG_TEXT);
    expect((await stat(join(dir, '.boxagnts', 'secrets.json'))).mode & 0o777).toBe(0o600);
    expect((await readdir(join(dir, '.boxagnts'))).filter((name) => name.startsWith('workspace.db'))).toContain(
      'workspace.db',
    );
    expect(workspace.paths.root).toBe(join(dir, 'root'));
    expect(workspace.config.store).toEqual({ kind: 'sqlite', path: join(dir, '.boxagnts', 'workspace.db') });
    expect(await workspace.store.schemaVersion()).toBeGreaterThan(0);
    expect(Object.keys(workspace.agents)).toEqual(['build', 'plan', 'explore']);
    expect((await workspace.agentsMd()).text).toBe('');
    expect((await workspace.outputStyle()).name).toBe('default');
  });

  it('opens an existing workspace without touching its files', async () => {
    const dir = join(base, 'existing');
    const first = await openTracked(dir);
    const session = await first.store.sessions.create({ title: 'kept' });
    await first.close();
    const custom = `{
  // mine
  "model": "openai/gpt-5",
  "agents": { "reviewer": { "description": "Reviews", "access": "read-only", "color": "cyan" }, "plan": { "model": "openai/o3" } },
  "defaultAgent": "reviewer"
}
`;
    await writeFile(join(dir, 'boxagnts.json'), custom);
    await writeFile(join(dir, 'AGENTS.md'), 'Be careful.');
    const second = await openTracked(dir);
    expect(await readFile(join(dir, 'boxagnts.json'), 'utf8')).toBe(custom);
    expect(second.config.model).toBe('openai/gpt-5');
    expect((await second.store.sessions.get(session.id))?.title).toBe('kept');
    expect(second.agents.reviewer).toEqual({
      name: 'reviewer',
      description: 'Reviews',
      access: 'read-only',
      visible: true,
      color: 'cyan',
      builtin: false,
    });
    expect(second.agents.plan?.model).toBe('openai/o3');
    expect(second.agents.plan?.access).toBe('read-only');
    expect(second.agents.plan?.builtin).toBe(true);
    expect((await second.agentsMd()).text).toBe('# From AGENTS.md of the workspace\n\nBe careful.');
  });

  it('fails on a bad config with the file, position and field, and creates no store', async () => {
    const dir = join(base, 'bad');
    await openTracked(dir).then((workspace) => workspace.close());
    await rm(join(dir, '.boxagnts', 'workspace.db'));
    await writeFile(join(dir, 'boxagnts.json'), '{\n  "permissions": { "mode": "sometimes" }\n}\n');
    const error = await openWorkspace(dir, { env: {} }).catch((caught: unknown) => caught);
    expect(isConfigError(error)).toBe(true);
    expect((error as Error).message).toBe(
      `${join(dir, 'boxagnts.json')}:2:20: permissions.mode: must be one of plan, default, accept-edits, bypass.`,
    );
    expect(await readdir(join(dir, '.boxagnts'))).not.toContain('workspace.db');
  });

  it('refuses an unknown output style and a loose secrets file', async () => {
    const dir = join(base, 'style');
    await openTracked(dir).then((workspace) => workspace.close());
    await writeFile(join(dir, 'boxagnts.json'), '{ "outputStyle": "pirate" }');
    await expect(openWorkspace(dir, { env: {} })).rejects.toThrow(
      'outputStyle: no output style "pirate". Use one of default, concise, explanatory, or add output-styles/pirate.md.',
    );
    await mkdir(join(dir, 'output-styles'));
    await writeFile(join(dir, 'output-styles', 'pirate.md'), '---\ndescription: Arr\n---\nTalk like a pirate.');
    const styled = await openTracked(dir);
    expect(await styled.outputStyle()).toMatchObject({ name: 'pirate', prompt: 'Talk like a pirate.' });
    await rm(join(dir, 'output-styles', 'pirate.md'));
    await expect(styled.outputStyle()).rejects.toMatchObject({ reason: 'schema', field: 'outputStyle' });
    await styled.close();
    await writeFile(join(dir, 'boxagnts.json'), '{}');
    await chmod(join(dir, '.boxagnts', 'secrets.json'), 0o604);
    await expect(openWorkspace(dir, { env: {} })).rejects.toMatchObject({ reason: 'file-mode' });
    await openTracked(dir, { fixPermissions: true });
    expect((await stat(join(dir, '.boxagnts', 'secrets.json'))).mode & 0o777).toBe(0o600);
  });

  it('does not create anything with create: false', async () => {
    const dir = join(base, 'absent');
    await expect(openWorkspace(dir, { create: false })).rejects.toMatchObject({ reason: 'io' });
    await expect(stat(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps several open workspaces apart', async () => {
    const [one, two] = await Promise.all([openTracked(join(base, 'one')), openTracked(join(base, 'two'))]);
    if (one === undefined || two === undefined) throw new Error('both workspaces must open');
    await one.secrets.set('anthropic', 'sk-ant-one-0000000000000000');
    await two.secrets.set('anthropic', 'sk-ant-two-1111111111111111');
    await one.setConfigValue(['model'], 'openai/gpt-5');
    await one.updateConfig((draft) => {
      draft.agents = { solo: { description: 'Only in one', access: 'full' } };
    });
    await one.store.sessions.create({ id: 'only-in-one', title: 'one' });

    expect(one.config.model).toBe('openai/gpt-5');
    expect(two.config.model).toBe('anthropic/claude-sonnet-4-6');
    expect(Object.keys(one.agents)).toContain('solo');
    expect(Object.keys(two.agents)).not.toContain('solo');
    expect((await one.providerKey('anthropic'))?.reveal()).toBe('sk-ant-one-0000000000000000');
    expect((await two.providerKey('anthropic'))?.reveal()).toBe('sk-ant-two-1111111111111111');
    expect(await two.store.sessions.get('only-in-one')).toBeUndefined();

    await one.close();
    expect(one.closed).toBe(true);
    expect((await two.store.sessions.create({ title: 'still open' })).title).toBe('still open');
  });

  it('resolves provider keys from the reference, the secrets file, or not at all', async () => {
    const dir = join(base, 'keys');
    await openTracked(dir).then((workspace) => workspace.close());
    await writeFile(
      join(dir, 'boxagnts.json'),
      '{ "providers": { "anthropic": { "apiKey": { "env": "ANTHROPIC_API_KEY" } }, "openai": { "apiKey": { "secret": "oa" } } } }',
    );
    const workspace = await openTracked(dir, { env: { ANTHROPIC_API_KEY: 'sk-ant-from-env-123456789' } });
    await workspace.secrets.set('oa', 'sk-proj-from-file-98765432');
    await workspace.secrets.set('deepseek', 'sk-deepseek-by-name-4242');
    expect((await workspace.providerKey('anthropic'))?.source).toBe('env:ANTHROPIC_API_KEY');
    expect((await workspace.providerKey('openai'))?.reveal()).toBe('sk-proj-from-file-98765432');
    expect((await workspace.providerKey('deepseek'))?.reveal()).toBe('sk-deepseek-by-name-4242');
    expect(await workspace.providerKey('mistral')).toBeUndefined();
    await workspace.secrets.delete('oa');
    await expect(workspace.providerKey('openai')).rejects.toThrow('providers.openai.apiKey: no secret named "oa"');
  });

  it('reloads an edited file and keeps the old config when the edit is invalid', async () => {
    const workspace = await openTracked(join(base, 'reload'));
    await writeFile(workspace.paths.config, '{ "model": "openai/gpt-5" }');
    expect((await workspace.reload()).model).toBe('openai/gpt-5');
    await writeFile(workspace.paths.config, '{ "model": 5 }');
    await expect(workspace.reload()).rejects.toMatchObject({ field: 'model' });
    expect(workspace.config.model).toBe('openai/gpt-5');
  });
});
