// BoxAgnts' static site component serves a site folder through createComponentHttpHandler, with its
// settings from wasi:config (basic auth). Needs BoxAgnts' prebuilt component: skipped where
// ../shared/fixtures/boxagnts is absent.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ComponentHttpHandler, createComponentHttpHandler } from './component-http-handler.js';
import { type ComponentRuntime, createComponentRuntime } from './component-runtime.js';
import { isComponentRuntimeError } from './component-runtime-error.js';
import { buildFixture, PACKAGE_DIR, tempDir } from './test-fixtures.js';

const SITE_COMPONENT = join(
  PACKAGE_DIR,
  '../../../shared/fixtures/boxagnts/services/boxed_static_server_component.wasm',
);
const HAVE_SITE_COMPONENT = existsSync(SITE_COMPONENT);

let runtime: ComponentRuntime;
let site: string;
let remove: () => Promise<void>;
const handlers: ComponentHttpHandler[] = [];

beforeAll(async () => {
  runtime = createComponentRuntime({ workers: 1 });
  const dir = await tempDir('http-component');
  remove = dir.remove;
  site = dir.path;
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

async function mount(config?: Record<string, string>): Promise<ComponentHttpHandler> {
  const handler = await createComponentHttpHandler(
    { path: SITE_COMPONENT },
    { root: site, runtime, ...(config ? { config } : {}) },
  );
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

describe.skipIf(!HAVE_SITE_COMPONENT)(
  "BoxAgnts' static site component (skipped where ../shared/fixtures/boxagnts is absent)",
  () => {
    it('serves the site folder: pages with their types, 404 for missing files and escapes, no secrets', async () => {
      const handler = await mount();
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
    });

    it('reads its basic-auth credentials from wasi:config', async () => {
      const handler = await mount({ username: 'ada', password: 'lovelace' });
      expect((await handler(new Request('http://site.local/index.html'))).status).toBe(401);
      const authorised = await handler(
        new Request('http://site.local/index.html', { headers: { authorization: `Basic ${btoa('ada:lovelace')}` } }),
      );
      expect(authorised.status).toBe(200);
      await handler.close();
      expect((await handler(new Request('http://site.local/index.html'))).status).toBe(503);
    });
  },
);
