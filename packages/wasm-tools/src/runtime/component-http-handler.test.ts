// A site component serves a site folder through createComponentHttpHandler, with its settings
// from wasi:config (basic auth). The same cases run against two components: BoxAgnts' prebuilt
// static site component (skipped where ../shared/fixtures/boxagnts is absent) and a
// wasi:http/incoming-handler component built from source in the test setup with componentize-js
// (test-components/http-site.js), which runs everywhere. The first run on a machine builds it
// (1-2 min on a loaded 2-core machine); later runs reuse it from the temp-folder cache.
import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ComponentHttpHandler, createComponentHttpHandler } from './component-http-handler.js';
import { type ComponentRuntime, createComponentRuntime } from './component-runtime.js';
import { isComponentRuntimeError } from './component-runtime-error.js';
import { buildHttpTestComponent } from './http-components.test-support.js';
import { buildFixture, PACKAGE_DIR, tempDir } from './test-fixtures.js';

const SITE_COMPONENT = join(
  PACKAGE_DIR,
  '../../../shared/fixtures/boxagnts/services/boxed_static_server_component.wasm',
);
const HAVE_SITE_COMPONENT = existsSync(SITE_COMPONENT);

/** The components the site cases run against: where each comes from, and whether it is here. */
const COMPONENTS = [
  {
    label: "BoxAgnts' static site component (skipped where ../shared/fixtures/boxagnts is absent)",
    available: HAVE_SITE_COMPONENT,
    path: async () => SITE_COMPONENT,
  },
  {
    label: 'a site component built from source with componentize-js',
    available: true,
    path: () => buildHttpTestComponent('site'),
  },
];

/** Building the from-source component the first time on a machine takes 1-2 min; then ms. */
const SETUP_TIMEOUT_MS = 300_000;

let runtime: ComponentRuntime;
let site: string;
let remove: () => Promise<void>;
const handlers: ComponentHttpHandler[] = [];

beforeAll(async () => {
  runtime = createComponentRuntime({ workers: 1 });
  const dir = await tempDir('http-component');
  remove = dir.remove;
  // The site is a folder inside the temp folder, beside a file it must never serve.
  site = join(dir.path, 'site');
  await mkdir(site);
  await writeFile(join(dir.path, 'outside.txt'), 'outside-secret');
  await symlink(join(dir.path, 'outside.txt'), join(site, 'link.txt'));
  await writeFile(join(site, 'index.html'), '<h1>Hello «site»</h1>');
  await mkdir(join(site, 'css'));
  await writeFile(join(site, 'css', 'style.css'), 'body { color: red }');
  await mkdir(join(site, '.boxagnts'));
  await writeFile(join(site, '.boxagnts', 'secrets.json'), '{"key":"sk-secret"}');
});

afterAll(async () => {
  for (const handler of handlers) await handler.close();
  await runtime.close();
  await remove();
});

async function mount(path: string, config?: Record<string, string>): Promise<ComponentHttpHandler> {
  const handler = await createComponentHttpHandler({ path }, { root: site, runtime, ...(config ? { config } : {}) });
  handlers.push(handler);
  return handler;
}

describe('createComponentHttpHandler', () => {
  it('refuses a component that does not serve HTTP', async () => {
    const command = await buildFixture('rust-debug-file', 'command-tool');
    const error = await createComponentHttpHandler({ path: command.path }, { root: site, runtime }).catch(
      (caught: unknown) => caught,
    );
    expect(isComponentRuntimeError(error)).toBe(true);
    expect((error as Error).message).toContain('does not export wasi:http/incoming-handler');
  }, 60_000);
});

for (const component of COMPONENTS) {
  describe.skipIf(!component.available)(component.label, () => {
    let path: string;

    beforeAll(async () => {
      path = await component.path();
      // Transpiles it once (a 12 MB component from source takes seconds the first time).
      await runtime.prepare({ path });
    }, SETUP_TIMEOUT_MS);

    it('serves the site folder: pages with their types, 404 for missing files and escapes, no secrets', async () => {
      const handler = await mount(path);
      const page = await handler(new Request('http://site.local/index.html'));
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toBe('<h1>Hello «site»</h1>');
      const css = await handler(new Request('http://site.local/css/style.css'));
      expect(css.headers.get('content-type')).toContain('text/css');
      expect(await css.text()).toBe('body { color: red }');
      expect((await handler(new Request('http://site.local/missing.html'))).status).toBe(404);
      const traversal = await handler(new Request('http://site.local/%2e%2e/%2e%2e/etc/passwd'));
      expect(traversal.status).toBe(404);
      const secret = await handler(new Request('http://site.local/.boxagnts/secrets.json'));
      expect(await secret.text()).not.toContain('sk-secret');
    }, 60_000);

    it('never serves a file outside the site folder: encoded traversal, absolute paths, outward links', async () => {
      const handler = await mount(path);
      for (const attack of [
        '/..%2foutside.txt',
        '/..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
        '/%2fetc%2fpasswd',
        '/css/..%2f..%2foutside.txt',
        '/link.txt',
      ]) {
        const response = await handler(new Request(`http://site.local${attack}`));
        const text = await response.text();
        expect(response.status, attack).not.toBe(200);
        expect(text, attack).not.toContain('outside-secret');
        expect(text, attack).not.toContain('root:');
      }
      // Still serving after the attacks.
      expect((await handler(new Request('http://site.local/index.html'))).status).toBe(200);
    }, 60_000);

    it('reads its basic-auth credentials from wasi:config', async () => {
      const handler = await mount(path, { username: 'ada', password: 'lovelace' });
      expect((await handler(new Request('http://site.local/index.html'))).status).toBe(401);
      const authorised = await handler(
        new Request('http://site.local/index.html', { headers: { authorization: `Basic ${btoa('ada:lovelace')}` } }),
      );
      expect(authorised.status).toBe(200);
      await handler.close();
      expect((await handler(new Request('http://site.local/index.html'))).status).toBe(503);
    }, 60_000);
  });
}

it.skipIf(HAVE_SITE_COMPONENT)(
  "BoxAgnts fixtures are absent: the prebuilt site component's cases are skipped (the from-source component's run)",
  () => {
    expect(HAVE_SITE_COMPONENT).toBe(false);
  },
);
