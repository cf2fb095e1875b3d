import { createHash } from 'node:crypto';
import { readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../gateway.js';
import { CANARY_KEY, createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';

let current: TestWorkspace | undefined;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await current?.close();
  gateway = undefined;
  current = undefined;
});

async function start(config: Record<string, unknown> = {}): Promise<RunningGateway> {
  current = await createTestWorkspace({ steps: [{ text: 'ok' }] }, config);
  gateway = await startGateway({
    workspace: current.workspace,
    port: 0,
    sandbox: { bash: false, jsExec: false },
    cron: false,
  });
  return gateway;
}

const json = (method: string, body: unknown, headers: Record<string, string> = {}) => ({
  method,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('settings routes', () => {
  it('permissions: read, patch (written into boxagnts.json with its other fields kept), bad mode refused by field', async () => {
    const running = await start({ permissions: { mode: 'default', deny: ['bash(rm *)'] } });
    const url = running.url;
    expect(await (await fetch(`${url}/settings/permissions`)).json()).toEqual({
      mode: 'default',
      allow: [],
      ask: [],
      deny: ['bash(rm *)'],
    });
    const patched = await fetch(`${url}/settings/permissions`, json('PATCH', { mode: 'plan', ask: ['write_file'] }));
    expect(patched.status).toBe(200);
    expect(await patched.json()).toEqual({ mode: 'plan', allow: [], ask: ['write_file'], deny: ['bash(rm *)'] });
    const file = JSON.parse(await readFile(join(current!.dir, 'boxagnts.json'), 'utf8'));
    expect(file.permissions).toEqual({ mode: 'plan', deny: ['bash(rm *)'], ask: ['write_file'] });
    expect(file.providers.anthropic.apiKey).toEqual({ secret: 'anthropic' });
    const bad = await fetch(`${url}/settings/permissions`, json('PATCH', { mode: 'yolo' }));
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: { reason: string; issues: { path: string }[] } };
    expect(body.error.reason).toBe('invalid-request');
    expect(body.error.issues[0]?.path).toBe('mode');
  });

  it('AGENTS.md: read, write (atomic, on disk), too large refused', async () => {
    const running = await start();
    const before = (await (await fetch(`${running.url}/settings/agents-md`)).json()) as {
      path: string;
      exists: boolean;
    };
    expect(before).toMatchObject({ path: 'AGENTS.md', exists: true });
    const put = await fetch(`${running.url}/settings/agents-md`, json('PUT', { content: '# Rules\n\nBe brief.\n' }));
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ content: '# Rules\n\nBe brief.\n', exists: true });
    expect(await readFile(join(current!.dir, 'AGENTS.md'), 'utf8')).toBe('# Rules\n\nBe brief.\n');
    const huge = await fetch(
      `${running.url}/settings/agents-md`,
      json('PUT', { content: 'x'.repeat(1024 * 1024 + 1) }),
    );
    expect(huge.status).toBe(400);
  });

  it('output styles: list with built-ins, create, read, delete; traversal and built-in deletion refused', async () => {
    const running = await start();
    const url = running.url;
    const listed = (await (await fetch(`${url}/settings/output-styles`)).json()) as {
      selected: string;
      styles: { name: string; builtin: boolean }[];
    };
    expect(listed.selected).toBe('default');
    expect(listed.styles.filter((style) => style.builtin).map((style) => style.name)).toEqual([
      'default',
      'concise',
      'explanatory',
    ]);
    const put = await fetch(
      `${url}/settings/output-styles/pirate`,
      json('PUT', { description: 'Talks like a pirate.', prompt: 'Answer like a pirate.' }),
    );
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({
      name: 'pirate',
      description: 'Talks like a pirate.',
      prompt: 'Answer like a pirate.',
      builtin: false,
      file: join('output-styles', 'pirate.md'),
      selected: false,
    });
    expect(await readFile(join(current!.dir, 'output-styles', 'pirate.md'), 'utf8')).toContain('Answer like a pirate.');
    expect((await fetch(`${url}/settings/output-styles/pirate`)).status).toBe(200);
    for (const name of ['..%2F..%2Fevil', '..%2Fboxagnts', '.hidden', 'UPPER', 'a%2Fb']) {
      const refused = await fetch(`${url}/settings/output-styles/${name}`, json('PUT', { prompt: 'x' }));
      expect(refused.status, name).toBe(400);
      expect(((await refused.json()) as { error: { reason: string } }).error.reason).toBe('invalid-request');
    }
    // A literal "../" is folded by the URL parser before routing: it reaches no style route at all.
    expect((await fetch(`${url}/settings/output-styles/%2E%2E`, json('PUT', { prompt: 'x' }))).status).toBe(404);
    const multiLine = await fetch(
      `${url}/settings/output-styles/two`,
      json('PUT', { description: 'a\n---\nname: x', prompt: 'x' }),
    );
    expect(multiLine.status).toBe(400);
    expect((await fetch(`${url}/settings/output-styles/concise`, { method: 'DELETE' })).status).toBe(409);
    expect((await fetch(`${url}/settings/output-styles/default`, { method: 'DELETE' })).status).toBe(409);
    expect((await fetch(`${url}/settings/output-styles/pirate`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(`${url}/settings/output-styles/pirate`, { method: 'DELETE' })).status).toBe(404);
  });

  it('output styles: a styles folder linked out of the workspace is refused, nothing written outside', async () => {
    const outside = await createTestWorkspace({ steps: [] });
    try {
      const running = await start();
      await symlink(outside.dir, join(current!.dir, 'output-styles'));
      const put = await fetch(`${running.url}/settings/output-styles/evil`, json('PUT', { prompt: 'x' }));
      expect(put.status).toBe(403);
      await expect(readFile(join(outside.dir, 'evil.md'), 'utf8')).rejects.toThrow();
    } finally {
      await outside.close();
    }
  });

  it('tokens: created (shown once), listed by name and date only, revoked; nothing secret in any settings answer', async () => {
    const running = await start();
    const url = running.url;
    const created = await fetch(`${url}/tokens`, json('POST', { name: 'dashboard' }));
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const { token, name, createdAt } = (await created.json()) as { token: string; name: string; createdAt: number };
    expect(name).toBe('dashboard');
    expect(token).toMatch(/^bxg_/);
    expect(createdAt).toBeGreaterThan(0);
    expect((await fetch(`${url}/tokens`, json('POST', { name: 'dashboard' }))).status).toBe(409);
    expect((await fetch(`${url}/tokens`, json('POST', { name: '../x' }))).status).toBe(400);
    const answers: string[] = [];
    for (const path of [
      '/tokens',
      '/providers',
      '/models',
      '/config',
      '/mcp-servers',
      '/settings/permissions',
      '/settings/agents-md',
      '/settings/output-styles',
    ]) {
      const response = await fetch(`${url}${path}`);
      expect(response.status, path).toBe(200);
      answers.push(await response.text());
    }
    const all = answers.join('\n');
    expect(all).not.toContain(CANARY_KEY);
    expect(all).not.toContain(token);
    expect(all).not.toContain(token.slice(4, 20));
    const digest = createHash('sha256').update(token).digest();
    expect(all).not.toContain(digest.toString('hex'));
    expect(all).not.toContain(digest.toString('base64'));
    expect(JSON.parse(answers[0]!)).toEqual({ tokens: [{ name: 'dashboard', createdAt }] });
    expect((await fetch(`${url}/tokens/dashboard`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(`${url}/tokens/dashboard`, { method: 'DELETE' })).status).toBe(404);
    const after = (await (await fetch(`${url}/tokens`)).json()) as { tokens: { revokedAt?: number }[] };
    expect(after.tokens[0]?.revokedAt).toBeGreaterThan(0);
  });

  it('state changes need the guard: no token is 401, a cross-origin POST is 403, with a token it works', async () => {
    current = await createTestWorkspace({ steps: [{ text: 'ok' }] });
    const first = await startGateway({
      workspace: current.workspace,
      port: 0,
      sandbox: { bash: false, jsExec: false },
      cron: false,
      dashboard: false,
    });
    const admin = first.tokens.create('admin');
    await first.close();
    gateway = await startGateway({
      workspace: current.workspace,
      port: 0,
      sandbox: { bash: false, jsExec: false },
      cron: false,
      security: { requireToken: true },
    });
    const url = gateway.url;
    expect((await fetch(`${url}/tokens`, json('POST', { name: 'sneaky' }))).status).toBe(401);
    expect((await fetch(`${url}/tokens`)).status).toBe(401);
    expect((await fetch(`${url}/settings/agents-md`, json('PUT', { content: 'pwned' }))).status).toBe(401);
    const crossOrigin = await fetch(
      `${url}/tokens`,
      json('POST', { name: 'sneaky' }, { authorization: `Bearer ${admin}`, origin: 'http://evil.example' }),
    );
    expect(crossOrigin.status).toBe(403);
    const crossPatch = await fetch(
      `${url}/settings/permissions`,
      json('PATCH', { mode: 'bypass' }, { authorization: `Bearer ${admin}`, origin: 'http://evil.example' }),
    );
    expect(crossPatch.status).toBe(403);
    expect(gateway.workspace.config.permissions.mode).toBe('default');
    const ok = await fetch(`${url}/tokens`, json('POST', { name: 'second' }, { authorization: `Bearer ${admin}` }));
    expect(ok.status).toBe(201);
    const listed = await (await fetch(`${url}/tokens`, { headers: { authorization: `Bearer ${admin}` } })).json();
    expect((listed as { tokens: { name: string }[] }).tokens.map((token) => token.name)).toEqual(['admin', 'second']);
    expect(await readFile(join(current.dir, 'AGENTS.md'), 'utf8')).not.toBe('pwned');
  });
});
