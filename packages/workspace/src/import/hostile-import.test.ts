import { mkdir, mkdtemp, readdir, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorkspace } from '../index.js';
import { fixtureSessions, writeBoxAgntsWorkspace } from './boxagnts-fixture.test-support.js';
import { snapshot } from './import-scenario.test-support.js';
import { importBoxAgntsWorkspace } from './import-workspace.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function hostile() {
  const fixture = await writeBoxAgntsWorkspace();
  cleanups.push(fixture.remove);
  // A folder outside both workspaces that nothing may write into or read from.
  const outside = await mkdtemp(join(tmpdir(), 'boxagnts-import-outside-'));
  cleanups.push(() => rm(outside, { recursive: true, force: true }));
  await writeFile(join(outside, 'secret.txt'), 'host secret: do not copy\n');
  return { dir: fixture.dir, state: join(fixture.dir, '.boxagnts'), outside };
}

const ENV = { GITHUB_TOKEN: 'x', TENANT: 'acme' };

describe('importBoxAgntsWorkspace with hostile input', () => {
  it('refuses traversal in session ids, links, deep and huge JSON, and imports the rest', async () => {
    const { dir, state, outside } = await hostile();
    const sessions = join(state, 'sessions');
    const [good] = fixtureSessions();
    await writeFile(join(sessions, 'evil.json'), JSON.stringify({ ...good, id: '../../../outside/evil' }));
    await writeFile(join(sessions, 'ctrl.json'), JSON.stringify({ ...good, id: 'a\u0000b' }));
    await symlink(join(outside, 'secret.txt'), join(sessions, 'linked.json'));
    await writeFile(join(sessions, 'deep.json'), `${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    await writeFile(join(sessions, 'huge.json'), '');
    await truncate(join(sessions, 'huge.json'), 65 * 1024 * 1024); // sparse: costs no disk
    await writeFile(join(sessions, 'broken.json'), '{"id": "broken", "messages": [');
    await writeFile(join(sessions, 'proto.json'), '{"__proto__": {"polluted": true}, "id": "proto", "messages": []}');

    const report = await importBoxAgntsWorkspace(dir, { env: ENV });
    const failed = Object.fromEntries(report.failed.map((item) => [item.name, item.detail ?? '']));
    expect(Object.keys(failed).sort()).toEqual([
      'broken.json',
      'ctrl.json',
      'deep.json',
      'evil.json',
      'huge.json',
      'linked.json',
    ]);
    expect(failed['evil.json']).toContain('is not a session id');
    expect(failed['linked.json']).toContain('symbolic link');
    expect(failed['deep.json']).toContain('nests more than 128 levels');
    expect(failed['huge.json']).toContain('over the limit');
    expect(failed['broken.json']).toContain('not valid JSON');
    expect(report.ok).toBe(false);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(await readdir(outside)).toEqual(['secret.txt']);

    // The rest is in, and the workspace opens.
    const workspace = await openWorkspace(dir, { env: ENV });
    try {
      const ids = (await workspace.store.sessions.list()).map((session) => session.id).sort();
      expect(ids).toEqual([...fixtureSessions().map((session) => session.id), 'proto'].sort());
    } finally {
      await workspace.close();
    }
  });

  it('never follows links out of skills or sites, nor a site path out of root/', async () => {
    const { dir, state, outside } = await hostile();
    const skills = join(dir, 'extensions', 'skills');
    await symlink(outside, join(skills, 'linked-skill'));
    await mkdir(join(skills, 'leaky'));
    await writeFile(join(skills, 'leaky', 'SKILL.md'), '---\nname: leaky\ndescription: leaks\n---\nbody\n');
    await symlink(join(outside, 'secret.txt'), join(skills, 'leaky', 'notes.md'));
    await symlink(outside, join(dir, 'root', 'www', 'linked-site'));
    await writeFile(
      join(state, 'site.config.json'),
      JSON.stringify({
        a: { name: 'escape', path: '../../..', component: 'x.wasm', enabled: true },
        b: { name: 'absolute', path: outside, component: 'x.wasm', enabled: true },
        c: { name: 'linked', path: 'www/linked-site', component: 'x.wasm', enabled: true },
        d: { name: '../Evil Name', path: 'www/blog', enabled: true },
        e: { name: 'blog', path: 'www/blog', enabled: true },
      }),
    );
    const report = await importBoxAgntsWorkspace(dir, { env: ENV });
    const byName = Object.fromEntries(report.items.map((item) => [`${item.kind}:${item.name}`, item]));
    expect(byName['skill:linked-skill']).toMatchObject({ action: 'skipped' });
    expect(byName['skill:leaky']).toMatchObject({ action: 'create' });
    expect(report.notes.join('\n')).toContain('notes.md (a symbolic link)');
    expect(byName['site:escape']?.detail).toContain('leaves root/');
    expect(byName['site:absolute']?.detail).toContain('leaves root/');
    expect(byName['site:linked']?.detail).toContain('symbolic link');
    expect(byName['site:../Evil Name']).toMatchObject({ action: 'skipped' });
    expect(byName['site:blog']).toMatchObject({ action: 'create' });
    expect(await readdir(join(dir, 'skills', 'leaky'))).toEqual(['SKILL.md']);
    expect(await readdir(join(dir, 'root', 'sites'))).toEqual(['blog']);
    // Nothing of the outside folder was copied anywhere in the workspace.
    for (const line of await snapshot(dir)) expect(line).not.toContain('secret.txt');
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('a config that cannot be valid stops the import before anything is written, and says why', async () => {
    const { dir, state } = await hostile();
    // An existing config of ours that is broken: the import must not paper over it.
    await writeFile(join(dir, 'boxagnts.json'), '{ "model": ');
    const settings = JSON.parse(await readFile(join(state, 'settings.json'), 'utf8'));
    await writeFile(join(state, 'settings.json'), JSON.stringify(settings));
    const before = await snapshot(dir);
    const report = await importBoxAgntsWorkspace(dir, { env: ENV });
    expect(report.ok).toBe(false);
    expect(report.failed).toHaveLength(1);
    expect(report.failed[0]).toMatchObject({ kind: 'config', name: 'boxagnts.json' });
    expect(report.failed[0]?.detail).toContain('nothing was imported');
    expect(await snapshot(dir)).toEqual(before);
  });

  it('a bad cron job fails alone; a second run after fixing it completes without duplicates', async () => {
    const { dir, state } = await hostile();
    const jobs = {
      good: { id: 'good', name: 'good', description: '', cron: '0 0 8 * * *', enabled: true, prompt: 'hi' },
      bad: { id: 'bad', name: 'bad', description: '', cron: '99 99 99 * * *', enabled: true, prompt: 'hi' },
    };
    await writeFile(join(state, 'cron.config.json'), JSON.stringify(jobs));
    const first = await importBoxAgntsWorkspace(dir, { env: ENV });
    expect(first.failed.map((item) => `${item.kind}:${item.name}`)).toEqual(['cron:bad']);
    expect(first.failed[0]?.detail).toMatch(/cron|expression|field/i);
    jobs.bad.cron = '0 0 9 * * *';
    await writeFile(join(state, 'cron.config.json'), JSON.stringify(jobs));
    const second = await importBoxAgntsWorkspace(dir, { env: ENV });
    expect(second.ok).toBe(true);
    expect(second.items.filter((item) => item.action === 'create').map((item) => `${item.kind}:${item.name}`)).toEqual([
      'cron:bad',
    ]);
    const workspace = await openWorkspace(dir, { env: ENV });
    try {
      expect((await workspace.store.cron.list()).map((job) => job.id).sort()).toEqual(['bad', 'good']);
      expect(await workspace.store.sessions.list()).toHaveLength(2);
    } finally {
      await workspace.close();
    }
  });

  it('a session that grew in BoxAgnts since the last import gets its new messages appended, once', async () => {
    const { dir, state } = await hostile();
    await importBoxAgntsWorkspace(dir, { env: ENV });
    const [, second] = fixtureSessions();
    const grown = {
      ...second,
      messages: [...(second?.messages ?? []), { role: 'user', content: 'And tomorrow, platypus?' }],
    };
    await writeFile(join(state, 'sessions', `${second?.id}.json`), JSON.stringify(grown));
    const report = await importBoxAgntsWorkspace(dir, { env: ENV });
    expect(report.items.find((item) => item.name === second?.id)).toMatchObject({
      action: 'update',
      detail: '1 new messages',
    });
    expect(
      (await importBoxAgntsWorkspace(dir, { env: ENV })).items.find((item) => item.name === second?.id)?.action,
    ).toBe('unchanged');
    const workspace = await openWorkspace(dir, { env: ENV });
    try {
      expect((await workspace.store.sessions.get(second?.id ?? ''))?.messageCount).toBe(3);
      expect((await workspace.store.sessions.search('platypus')).map((hit) => hit.seq)).toEqual([3]);
    } finally {
      await workspace.close();
    }
  });

  it('refuses a folder that holds no BoxAgnts workspace, with what to pass instead', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'boxagnts-import-empty-'));
    cleanups.push(() => rm(empty, { recursive: true, force: true }));
    await expect(importBoxAgntsWorkspace(empty)).rejects.toThrow(/no BoxAgnts workspace here/);
    expect(await readdir(empty)).toEqual([]);
  });
});

describe('importBoxAgntsWorkspace into another folder', () => {
  it('leaves the BoxAgnts folder as it was and brings sites, skills and sessions over', async () => {
    const { dir } = await hostile();
    const into = await mkdtemp(join(tmpdir(), 'boxagnts-import-into-'));
    cleanups.push(() => rm(into, { recursive: true, force: true }));
    const before = await snapshot(dir);
    const report = await importBoxAgntsWorkspace(dir, { into, env: ENV });
    expect(report.failed).toEqual([]);
    expect(await snapshot(dir)).toEqual(before);
    expect(await readFile(join(into, 'root', 'sites', 'blog', 'index.html'), 'utf8')).toBe('<h1>Blog</h1>\n');
    expect(await readdir(join(into, 'skills'))).toEqual(['current-weather']);
    const workspace = await openWorkspace(into, { env: ENV });
    try {
      expect(await workspace.store.sessions.list()).toHaveLength(2);
      expect((await workspace.secrets.list()).sort()).toContain('anthropic');
    } finally {
      await workspace.close();
    }
  });

  it('settings with names that reach a prototype or are not valid here are left out, and the rest imports', async () => {
    const { dir, state } = await hostile();
    await writeFile(
      join(state, 'settings.json'),
      `{"config": {"model": "openai/gpt-5", "__proto__": {"model": "evil/x"},
        "agents": {"constructor": {"prompt": "x"}, "__proto__": {"prompt": "y"}, "Bad Name": {}, "reviewer": {"prompt": "Review."}},
        "mcp_servers": [{"name": "prototype", "command": "x"}, {"name": "!!!", "command": "y"}, {"name": "ok", "command": "z"}],
        "provider_configs": {"__proto__": {"api_base": "https://evil.example"}, "openai": {"id": "openai", "api_base": "javascript:alert(1)"}}}}`,
    );
    const report = await importBoxAgntsWorkspace(dir, { env: ENV });
    expect(report.failed).toEqual([]);
    const workspace = await openWorkspace(dir, { env: ENV });
    try {
      expect(workspace.config.model).toBe('openai/gpt-5');
      expect(Object.keys(workspace.config.mcpServers)).toEqual(['ok']);
      expect(workspace.config.agents.reviewer).toMatchObject({ prompt: 'Review.', access: 'full' });
      expect(Object.keys(workspace.config.agents)).not.toContain('constructor');
      expect(workspace.config.providers.openai?.baseUrl).toBeUndefined();
    } finally {
      await workspace.close();
    }
    expect(report.notes.join('\n')).toContain('is not an http(s) URL');
  });
});

const LEAKED = 'sk-ant-api03-leakedintoaprompt0123456789abcdef';

describe('importBoxAgntsWorkspace with a setting the config refuses', () => {
  it('leaves that setting out with a note and imports the others', async () => {
    const { dir, state } = await hostile();
    await writeFile(
      join(state, 'settings.json'),
      JSON.stringify({
        config: {
          model: 'openai/gpt-5',
          agents: {
            reviewer: { prompt: 'Review.', access: 'full', max_turns: 5 },
            tester: { prompt: `Call the API with ${LEAKED}.` },
          },
          allowed_outbound_hosts: ['https://wttr.in'],
          mcp_servers: [
            { name: 'files', command: 'mcp-files', env: { TOKEN: 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789' } },
          ],
        },
      }),
    );
    const report = await importBoxAgntsWorkspace(dir, { env: ENV });
    expect(report.failed).toEqual([]);
    const workspace = await openWorkspace(dir, { env: ENV });
    try {
      expect(workspace.config.model).toBe('openai/gpt-5');
      expect(workspace.config.agents.reviewer?.maxTurns).toBe(5);
      expect(workspace.config.network.allowedHosts).toEqual(['https://wttr.in']);
      expect((await workspace.secrets.get('mcp-files-TOKEN'))?.reveal()).toBe(
        'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789',
      );
      expect(Object.keys(workspace.config.agents)).not.toContain('tester');
    } finally {
      await workspace.close();
    }
    expect(report.notes.find((note) => note.startsWith('agent tester left out'))).toContain('secrets file');
    expect(JSON.stringify(report)).not.toContain(LEAKED);
    expect(await readFile(join(dir, 'boxagnts.json'), 'utf8')).not.toContain(LEAKED);
  });
});

describe('importBoxAgntsWorkspace with forks', () => {
  it('imports a parent before its fork, which keeps its link and fork point', async () => {
    const { dir, state } = await hostile();
    const [first] = fixtureSessions();
    const fork = {
      id: '0000-fork-of-first',
      created_at: '2026-05-03T09:00:00Z',
      updated_at: '2026-05-03T09:00:00Z',
      model: 'anthropic/claude-sonnet-4-6',
      title: 'A fork',
      parent_session_id: first?.id,
      fork_point_message_index: 2,
      messages: first?.messages.slice(0, 2),
    };
    // A cycle of two is not followed forever either.
    const a = { ...fork, id: 'cycle-a', parent_session_id: 'cycle-b' };
    const b = { ...fork, id: 'cycle-b', parent_session_id: 'cycle-a' };
    for (const session of [fork, a, b])
      await writeFile(join(state, 'sessions', `${session.id}.json`), JSON.stringify(session));
    const report = await importBoxAgntsWorkspace(dir, { env: ENV });
    expect(report.failed).toEqual([]);
    const workspace = await openWorkspace(dir, { env: ENV });
    try {
      expect(await workspace.store.sessions.get(fork.id)).toMatchObject({
        kind: 'fork',
        parentSessionId: first?.id,
        forkedAtSeq: 2,
        messageCount: 2,
      });
      expect((await workspace.store.sessions.children(first?.id ?? '')).map((child) => child.id)).toEqual([fork.id]);
      expect((await workspace.store.sessions.list()).length).toBe(5);
    } finally {
      await workspace.close();
    }
  });
});
