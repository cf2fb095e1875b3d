import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isConfigError } from '../config/config-error.js';
import { parseConfigText } from '../config/load-config.js';
import { isStoreError } from '../store/store-error.js';
import { openWorkspace } from '../workspace/open-workspace.js';
import type { Workspace } from '../workspace/workspace.js';
import { hashSiteCredentials, parseSiteCredentials, siteAuthSecretName, verifySiteCredentials } from './site-auth.js';
import { workspaceSites } from './workspace-sites.js';

let dir = '';
let workspace: Workspace;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'boxagnts-sites-'));
  workspace = await openWorkspace(dir);
});
afterEach(async () => {
  await workspace.close();
  await rm(dir, { recursive: true, force: true });
});

describe('workspaceSites', () => {
  it('serves from root/sites by default, so an agent writing sites/<name>/ in its root publishes it', () => {
    expect(workspaceSites(workspace).folder).toBe(join(workspace.paths.root, 'sites'));
  });

  it('creates an empty folder and a row; a second create is a conflict', async () => {
    const sites = workspaceSites(workspace);
    const made = await sites.create('docs');
    expect(made).toMatchObject({ name: 'docs', folder: join(dir, 'root', 'sites', 'docs'), spa: false });
    expect((await stat(made.folder)).isDirectory()).toBe(true);
    expect((await workspace.store.sites.get('docs'))?.path).toBe(made.folder);
    const error = await sites.create('docs').catch((caught: unknown) => caught);
    expect(isStoreError(error) && error.reason).toBe('conflict');
  });

  it('lists a folder made outside the API (the agent deploy case) and records it; drops rows whose folder is gone', async () => {
    const sites = workspaceSites(workspace);
    await mkdir(join(sites.folder, 'demo'), { recursive: true });
    await writeFile(join(sites.folder, 'demo', 'index.html'), '<h1>hi</h1>');
    await mkdir(join(sites.folder, 'Not_A_Label'));
    await writeFile(join(sites.folder, 'loose-file'), 'x');
    await workspace.store.sites.create({ name: 'gone', path: join(sites.folder, 'gone') });
    expect((await sites.list()).map((site) => site.name)).toEqual(['demo']);
    expect((await workspace.store.sites.get('demo'))?.path).toBe(join(sites.folder, 'demo'));
    expect(await workspace.store.sites.get('gone')).toBeUndefined();
  });

  it('does not count a symbolic link as a site folder', async () => {
    const sites = workspaceSites(workspace);
    await mkdir(sites.folder, { recursive: true });
    await symlink(dir, join(sites.folder, 'escape'));
    expect(await sites.list()).toEqual([]);
    expect(await sites.get('escape')).toBeUndefined();
  });

  it('delete removes the folder, the row, the login and the SPA entry; keepFiles keeps the folder', async () => {
    const sites = workspaceSites(workspace);
    await sites.create('app', { spa: true });
    expect(workspace.config.gateway.sites.spa).toEqual(['app']);
    await writeFile(join(sites.folder, 'app', 'index.html'), 'x');
    await sites.setAuth('app', 'alice', 'pw-1');
    await sites.delete('app');
    await expect(stat(join(sites.folder, 'app'))).rejects.toThrow(/ENOENT/);
    expect(await workspace.store.sites.get('app')).toBeUndefined();
    expect(await workspace.secrets.has(siteAuthSecretName('app'))).toBe(false);
    expect(workspace.config.gateway.sites.spa).toEqual([]);
    await sites.create('kept');
    await sites.delete('kept', { keepFiles: true });
    expect((await stat(join(sites.folder, 'kept'))).isDirectory()).toBe(true);
    const missing = await sites.delete('never').catch((caught: unknown) => caught);
    expect(isStoreError(missing) && missing.reason).toBe('not-found');
  });

  it('deleting a symlinked site folder removes only the link, never what it points at', async () => {
    const sites = workspaceSites(workspace);
    const outside = join(dir, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'keep.txt'), 'precious');
    await mkdir(sites.folder, { recursive: true });
    await symlink(outside, join(sites.folder, 'linked'));
    await sites.delete('linked');
    expect(await readFile(join(outside, 'keep.txt'), 'utf8')).toBe('precious');
  });

  it('stores only a salted scrypt hash of the login; the user name is checked, the password verified', async () => {
    const sites = workspaceSites(workspace);
    await sites.create('private');
    await sites.setAuth('private', 'alice', 'correct horse');
    const raw = await readFile(workspace.secrets.file, 'utf8');
    expect(raw).not.toContain('correct horse');
    const credentials = await sites.credentials('private');
    if (credentials === undefined || credentials === 'invalid') throw new Error('no credentials');
    expect(credentials.user).toBe('alice');
    expect(await verifySiteCredentials(credentials, 'alice', 'correct horse')).toBe(true);
    expect(await verifySiteCredentials(credentials, 'alice', 'correct horsf')).toBe(false);
    expect(await verifySiteCredentials(credentials, 'bob', 'correct horse')).toBe(false);
    expect((await sites.get('private'))?.authUser).toBe('alice');
    expect(await sites.clearAuth('private')).toBe(true);
    expect(await sites.credentials('private')).toBeUndefined();
    expect(await sites.clearAuth('private')).toBe(false);
  });

  it('two hashes of one password differ (salted) and a tampered secret is unreadable, not a crash', async () => {
    const first = await hashSiteCredentials('u', 'p');
    expect(first).not.toBe(await hashSiteCredentials('u', 'p'));
    expect(parseSiteCredentials(first.replace('$16384$', '$1073741824$'))).toBeUndefined();
    expect(parseSiteCredentials('plain-password')).toBeUndefined();
    await workspaceSites(workspace).create('odd');
    await workspace.secrets.set(siteAuthSecretName('odd'), 'plain-password');
    expect(await workspaceSites(workspace).credentials('odd')).toBe('invalid');
  });

  it('refuses a login for a missing site, a user with ":" and an empty password', async () => {
    const sites = workspaceSites(workspace);
    await expect(sites.setAuth('nope', 'a', 'b')).rejects.toThrow(/no site "nope"/);
    await sites.create('s');
    await expect(sites.setAuth('s', 'a:b', 'pw')).rejects.toThrow(/without ":"/);
    await expect(sites.setAuth('s', 'a', '')).rejects.toThrow(/1-1024 bytes/);
  });

  it("gateway.sites.folder moves the sites (here: the top-level sites/, out of the agents' reach)", async () => {
    await workspace.setConfigValue(['gateway', 'sites', 'folder'], 'sites');
    const sites = workspaceSites(workspace);
    expect(sites.folder).toBe(join(dir, 'sites'));
    expect((await sites.create('outside-root')).folder).toBe(join(dir, 'sites', 'outside-root'));
  });

  it.each([
    ['{ "gateway": { "sites": { "domain": "bad domain" } } }', 'gateway.sites.domain'],
    ['{ "gateway": { "sites": { "spa": ["Not_A_Label"] } } }', 'gateway.sites.spa[0]'],
    ['{ "gateway": { "sites": { "port": 70000 } } }', 'gateway.sites.port'],
    ['{ "gateway": { "sites": { "root": "x" } } }', 'gateway.sites.root'],
  ])('a bad gateway.sites config is a ConfigError naming the field: %s', (text, field) => {
    let caught: unknown;
    try {
      parseConfigText(text, '/ws/boxagnts.json', { env: {} });
    } catch (error) {
      caught = error;
    }
    expect(isConfigError(caught)).toBe(true);
    expect((caught as { field?: string }).field).toBe(field);
  });
});
