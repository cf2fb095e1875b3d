import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../gateway.js';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';
import type { FileListJson, WrittenFileJson } from './api-types/index.js';

let current: TestWorkspace | undefined;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await current?.close();
  gateway = undefined;
  current = undefined;
});

async function start() {
  current = await createTestWorkspace({ steps: [] });
  gateway = await startGateway({ workspace: current.workspace, port: 0 });
  return { url: gateway.url, root: current.workspace.paths.root, dir: current.dir };
}

const json = (body: unknown, method = 'POST') => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('files under root/', () => {
  it('writes, lists, reads, uploads, moves and deletes files', async () => {
    const { url, root } = await start();
    expect((await fetch(`${url}/files/content`, json({ path: 'docs/a.txt', content: 'alpha' }, 'PUT'))).status).toBe(
      201,
    );
    const listing = (await (await fetch(`${url}/files?path=docs`)).json()) as {
      entries: { name: string; size: number }[];
    };
    expect(listing.entries).toEqual([expect.objectContaining({ name: 'a.txt', size: 5 })]);
    expect(await (await fetch(`${url}/files/content?path=docs/a.txt`)).text()).toBe('alpha');
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array([0, 1, 2, 255])]), 'bin.dat');
    form.set('path', 'uploads');
    expect((await fetch(`${url}/files/upload`, { method: 'POST', body: form })).status).toBe(201);
    expect([...(await readFile(join(root, 'uploads/bin.dat')))]).toEqual([0, 1, 2, 255]);
    // An absolute path means the same as for the tools: a path from root/, never the host's /.
    const rooted = await fetch(`${url}/files/content`, json({ path: '/tmp/gateway-rooted.txt', content: 'x' }, 'PUT'));
    expect(rooted.status).toBe(201);
    expect(await readFile(join(root, 'tmp/gateway-rooted.txt'), 'utf8')).toBe('x');
    expect((await fetch(`${url}/files/move`, json({ from: 'docs/a.txt', to: 'docs/b.txt' }))).status).toBe(200);
    expect(await readFile(join(root, 'docs/b.txt'), 'utf8')).toBe('alpha');
    expect((await fetch(`${url}/files?path=docs/b.txt`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(`${url}/files/content?path=docs/b.txt`)).status).toBe(404);
  });

  it('a save with ifMatch goes through only over the file as it was read; folders are created', async () => {
    const { url, root } = await start();
    await writeFile(join(root, 'notes.md'), 'v1');
    const read = await fetch(`${url}/files/content?path=notes.md`);
    const etag = read.headers.get('etag');
    expect(etag).toMatch(/^"sha256-/);
    expect(await read.text()).toBe('v1');
    const saved = await fetch(`${url}/files/content`, json({ path: 'notes.md', content: 'v2', ifMatch: etag }, 'PUT'));
    expect(saved.status).toBe(200);
    const written = (await saved.json()) as WrittenFileJson;
    expect(written.etag).not.toBe(etag);
    expect(written.etag).toBe((await fetch(`${url}/files/content?path=notes.md`)).headers.get('etag'));
    // Someone else saved in between: the stale tag is refused and the file keeps their version.
    await writeFile(join(root, 'notes.md'), 'theirs');
    const stale = await fetch(
      `${url}/files/content`,
      json({ path: 'notes.md', content: 'v3', ifMatch: written.etag }, 'PUT'),
    );
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: { message: string } }).error.message).toContain(
      'changed since you read it',
    );
    expect(await readFile(join(root, 'notes.md'), 'utf8')).toBe('theirs');
    const create = (ifMatch: string) =>
      fetch(`${url}/files/content`, json({ path: 'new.md', content: 'n', ifMatch }, 'PUT'));
    expect((await create('absent')).status).toBe(201);
    expect((await create('absent')).status).toBe(409);
    // Two saves from the same read: exactly one wins.
    const tag = (await fetch(`${url}/files/content?path=new.md`)).headers.get('etag') ?? '';
    const both = await Promise.all(
      ['a', 'b'].map((content) =>
        fetch(`${url}/files/content`, json({ path: 'new.md', content, ifMatch: tag }, 'PUT')),
      ),
    );
    expect(both.map((response) => response.status).sort()).toEqual([200, 409]);

    const folder = await fetch(`${url}/files/folder`, json({ path: 'drafts/2026' }));
    expect(folder.status).toBe(201);
    expect(((await folder.json()) as { path: string }).path).toBe('drafts/2026');
    const listing = (await (await fetch(`${url}/files?path=drafts`)).json()) as FileListJson;
    expect(listing.entries).toEqual([expect.objectContaining({ name: '2026', type: 'directory' })]);
    expect((await fetch(`${url}/files/folder`, json({ path: 'drafts/2026' }))).status).toBe(409);
    expect((await fetch(`${url}/files/folder`, json({ path: '../outside-folder' }))).status).toBe(403);
    expect((await fetch(`${url}/files/folder`, json({ path: '' }))).status).toBe(400);
  });

  it('refuses every way out of root/ and every secret, whatever the spelling', async () => {
    const { url, root, dir } = await start();
    await writeFile(join(dir, 'outside.txt'), 'OUTSIDE-SECRET');
    await mkdir(join(root, 'sub'), { recursive: true });
    await symlink(dir, join(root, 'sub', 'escape'));
    const reads = [
      '../outside.txt',
      'sub/../../outside.txt',
      `${dir}/outside.txt`,
      '/etc/passwd',
      'sub/escape/outside.txt',
      'sub/escape/.boxagnts/secrets.json',
      '..%2Foutside.txt',
      'a\u0000b',
    ];
    for (const path of reads) {
      const response = await fetch(`${url}/files/content?path=${encodeURIComponent(path)}`);
      expect([400, 403, 404]).toContain(response.status);
      expect(await response.text()).not.toContain('OUTSIDE-SECRET');
    }
    const writes = [
      { path: '../evil.txt', content: 'x' },
      { path: 'sub/escape/evil.txt', content: 'x' },
    ];
    for (const body of writes) {
      const response = await fetch(`${url}/files/content`, json(body, 'PUT'));
      expect(`${body.path} ${response.status}`).toBe(`${body.path} 403`);
    }
    expect((await fetch(`${url}/files/move`, json({ from: '../outside.txt', to: 'stolen.txt' }))).status).toBe(403);
    expect((await fetch(`${url}/files/folder`, json({ path: 'sub/escape/made' }))).status).toBe(403);
    expect((await fetch(`${url}/files?path=..`, { method: 'DELETE' })).status).toBe(403);
    expect((await fetch(`${url}/files?path=.`, { method: 'DELETE' })).status).toBe(403);
    expect(await readFile(join(dir, 'outside.txt'), 'utf8')).toBe('OUTSIDE-SECRET');
    const form = new FormData();
    form.set('file', new Blob(['x']), '../../evil.txt');
    const upload = await fetch(`${url}/files/upload`, { method: 'POST', body: form });
    expect([400, 403]).toContain(upload.status);
  });
});
