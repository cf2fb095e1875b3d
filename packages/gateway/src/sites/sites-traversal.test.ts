import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SitesRig, startSitesRig } from './sites.test-support.js';

// Every file outside the site "demo" holds this marker; no response may ever contain it.
const SECRET = 'TOP-SECRET-7f3a9c';

let rig: SitesRig;
beforeAll(async () => {
  rig = await startSitesRig();
  await rig.write({
    'demo/index.html': '<h1>demo</h1>',
    'demo/sub/page.html': 'sub page',
    'demo/.env': `API_KEY=${SECRET}`,
    'demo/.git/config': `[remote] ${SECRET}`,
    'demo/sub/.hidden': SECRET,
    'other/private.txt': SECRET,
    '%2e%2e/secret.txt': SECRET,
  });
  // Outside the site folder: next to it, in the workspace folder and in the workspace's state folder.
  await writeFile(join(rig.folder, 'secret.txt'), SECRET);
  await writeFile(join(rig.workspace.paths.root, 'secret.txt'), SECRET);
  await writeFile(join(rig.dir, 'secret.txt'), SECRET);
  const outside = join(rig.dir, 'outside');
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), SECRET);
  // Symbolic links from inside the site to outside it, to a dotfile inside it, and a linked site folder.
  await symlink(join(outside, 'secret.txt'), join(rig.folder, 'demo', 'leak.txt'));
  await symlink(outside, join(rig.folder, 'demo', 'outdir'));
  await symlink('../other', join(rig.folder, 'demo', 'sibling'));
  await symlink('.env', join(rig.folder, 'demo', 'alias'));
  await symlink(outside, join(rig.folder, 'evil'));
  await symlink(join(rig.workspace.paths.dir, '.boxagnts'), join(rig.folder, 'state'));
});
afterAll(() => rig.close());

function refused(reply: { status: number; text: string }, statuses: number[]) {
  expect(reply.text).not.toContain(SECRET);
  expect(statuses).toContain(reply.status);
}

describe('site paths cannot escape the site folder', () => {
  it('serves the site itself (the baseline the attacks start from)', async () => {
    expect((await rig.get('demo', '/')).text).toBe('<h1>demo</h1>');
    expect((await rig.get('demo', '/sub/page.html')).text).toBe('sub page');
  });

  it.each([
    '/../secret.txt',
    '/sub/../../secret.txt',
    '/./index.html',
    '/%2e%2e/secret.txt',
    '/%2E%2E/secret.txt',
    '/.%2e/secret.txt',
    '/%2e./secret.txt',
    '/sub/%2e%2e/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e%2fsecret.txt',
    '/sub%2f..%2f..%2fsecret.txt',
    '/%2f..%2f..%2fsecret.txt',
  ])('dot segments, raw or encoded: %s', async (path) => {
    refused(await rig.get('demo', path), [400]);
  });

  it('double encoding is decoded once: %252e%252e names a file literally called "%2e%2e"', async () => {
    refused(await rig.get('demo', '/%252e%252e/secret.txt'), [404]);
    refused(await rig.get('demo', '/%252e%252e%252fsecret.txt'), [404]);
    refused(await rig.get('demo', '/%25252e%25252e/secret.txt'), [404]);
  });

  it.each([
    '/..\\secret.txt',
    '/sub\\..\\..\\secret.txt',
    '/%5c..%5csecret.txt',
    '/..%5csecret.txt',
    '/..%5Csecret.txt',
    '/sub%5c%2e%2e%5c%2e%2e%5csecret.txt',
  ])('backslash forms: %s', async (path) => {
    refused(await rig.get('demo', path), [400]);
  });

  it.each(['/index.html%00', '/index.html%00.txt', '/%00/../secret.txt', '/sub/%00', '/%0a', '/%7f'])(
    'NUL and control characters: %s',
    async (path) => {
      refused(await rig.get('demo', path), [400]);
    },
  );

  it.each([
    '/%c0%ae%c0%ae/secret.txt',
    '/%c0%ae%c0%ae%c0%afsecret.txt',
    '/%e0%80%ae%e0%80%ae/secret.txt',
    '/%c1%9c..%c1%9csecret.txt',
    '/%ed%a0%80',
    '/%ff',
    '/%',
    '/%2',
    '/%zz',
  ])('overlong and malformed UTF-8 or escapes: %s', async (path) => {
    refused(await rig.get('demo', path), [400]);
  });

  it.each(['/leak.txt', '/outdir/secret.txt', '/outdir/', '/sibling/private.txt', '/alias'])(
    'symbolic links out of the site folder, into another site, or onto a dotfile: %s',
    async (path) => {
      refused(await rig.get('demo', path), [404]);
    },
  );

  it('a site folder that is a symbolic link is no site', async () => {
    refused(await rig.get('evil', '/secret.txt'), [404]);
    refused(await rig.get('evil', '/'), [404]);
    refused(await rig.get('state', '/workspace.db'), [404]);
  });

  it.each([
    '/.env',
    '/.git/config',
    '/.git/',
    '/.git',
    '/sub/.hidden',
    '/%2eenv',
    '/%2Eenv',
    '/.ENV',
    '/.Git/config',
    '/.git%2fconfig',
  ])('dotfiles and dot-folders, also encoded or in another case: %s', async (path) => {
    refused(await rig.get('demo', path), [400, 404]);
  });

  it('the listing of the site never shows a dotfile', async () => {
    await rig.write({ 'demo/sub/visible.txt': 'v' });
    const listing = await rig.get('demo', '/sub/');
    expect(listing.status).toBe(200);
    expect(listing.text).toContain('visible.txt');
    expect(listing.text).not.toContain('.hidden');
  });

  it.each(['..', '..%2f', '../demo', 'demo/..', 'demo..', '.demo', 'demo.', '-demo', 'a\\b', '%2e%2e', ''])(
    'a Host whose site-name part is %j names no site',
    async (label) => {
      refused(await rig.get(label, '/secret.txt'), [400, 404]);
    },
  );

  it('host names are case-insensitive (DNS), file names are not', async () => {
    const upper = await rig.get('DEMO', '/');
    expect(upper.status).toBe(200);
    expect(upper.text).toBe('<h1>demo</h1>');
    refused(await rig.get('demo', '/INDEX.HTML'), [404]);
  });

  it('the API host, a bare IP and an unrelated host get no site', async () => {
    for (const host of ['127.0.0.1', `127.0.0.1:${rig.port}`, 'localhost', 'example.com', 'demo.localhost.evil.com']) {
      const reply = await rig.raw(`GET /secret.txt HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(reply).toMatch(/^HTTP\/1\.1 404 /);
      expect(reply).not.toContain(SECRET);
    }
  });

  it('very long paths and names are refused, never served from elsewhere', async () => {
    refused(await rig.get('demo', `/${'a'.repeat(3000)}`), [414]);
    refused(await rig.get('demo', `/${'%2e%2e/'.repeat(300)}secret.txt`), [414]);
    refused(await rig.get('demo', `/${'b'.repeat(300)}`), [404]);
    refused(await rig.get('demo', `/${'sub/'.repeat(200)}x`), [404]);
  });

  it('request targets that are not a path are refused', async () => {
    for (const target of [
      `http://demo.localhost:${rig.port}/../secret.txt`,
      `http://demo.localhost:${rig.port}/index.html`,
      '*',
    ]) {
      const reply = await rig.raw(
        `GET ${target} HTTP/1.1\r\nHost: demo.localhost:${rig.port}\r\nConnection: close\r\n\r\n`,
      );
      expect(reply).toMatch(/^HTTP\/1\.1 400 /);
      expect(reply).not.toContain(SECRET);
    }
  });

  it('a raw "../" on the socket (no client normalising it) is refused', async () => {
    const reply = await rig.raw(
      `GET /../../secret.txt HTTP/1.1\r\nHost: demo.localhost:${rig.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply).not.toContain(SECRET);
  });

  it('precompressed siblings follow the same policy (a .br link out of the site is ignored)', async () => {
    await rig.write({ 'demo/app.js': 'console.log(1)' });
    await symlink(join(rig.dir, 'outside', 'secret.txt'), join(rig.folder, 'demo', 'app.js.br'));
    const reply = await rig.get('demo', '/app.js', { headers: { 'accept-encoding': 'br' } });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(reply.text).toBe('console.log(1)');
  });

  it('a custom 404.html that is a link out of the site is not used', async () => {
    await rig.write({ 'other/index.html': 'other' });
    await symlink(join(rig.dir, 'outside', 'secret.txt'), join(rig.folder, 'other', '404.html'));
    refused(await rig.get('other', '/missing'), [404]);
  });
});
