// pnpm bench (in packages/gateway), the component-site part: requests per second of a site served by
// BoxAgnts' static site component (gateway.sites.components) against the same files served by the
// built-in static handler, same server, same run, autocannon over loopback. Needs BoxAgnts' prebuilt
// component in ../shared/fixtures/boxagnts: skipped (with a line saying so) where it is absent.
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openWorkspace } from '@boxagnts/workspace';
import autocannon from 'autocannon';
import { createSitesHandler } from '../src/sites/sites-server.js';

const seconds = Number(process.env.BENCH_SITES_SECONDS ?? 3);
const connections = Number(process.env.BENCH_SITES_CONNECTIONS ?? 10);
const line = (text: string) => process.stdout.write(`${text}\n`);
const here = dirname(fileURLToPath(import.meta.url));
const component = join(here, '../../../../shared/fixtures/boxagnts/services/boxed_static_server_component.wasm');

if (!existsSync(component)) {
  line(`component sites: skipped (BoxAgnts' static site component is absent: ${component})`);
} else {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-compsite-bench-'));
  await writeFile(
    join(dir, 'boxagnts.json'),
    JSON.stringify({ gateway: { sites: { components: { comp: { component: 'tools/static.wasm' } } } } }),
  );
  await mkdir(join(dir, 'tools'), { recursive: true });
  await copyFile(component, join(dir, 'tools', 'static.wasm'));
  const workspace = await openWorkspace(dir);
  const small = `<p>${'x'.repeat(1017)}</p>`;
  for (const site of ['static', 'comp']) {
    await mkdir(join(workspace.config.gateway.sites.folder, site), { recursive: true });
    await writeFile(join(workspace.config.gateway.sites.folder, site, 'small.html'), small);
  }
  const handler = createSitesHandler(workspace);
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const load = async (site: string, duration: number) => {
    const result = await autocannon({
      url: `http://127.0.0.1:${port}/small.html`,
      connections,
      duration,
      headers: { host: `${site}.localhost:${port}` },
    });
    if (result.errors > 0 || result.non2xx > 0)
      throw new Error(`${site}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
    return result.requests.average;
  };
  line(`component sites: requests/s for a 1 KiB page over loopback, ${connections} connections, ${seconds} s each`);
  line('case            static handler   component   component/static');
  const rates: Record<string, number> = {};
  for (const site of ['static', 'comp']) {
    await load(site, 1); // warm-up (starts the component's process)
    rates[site] = await load(site, seconds);
  }
  const rate = (site: string) => rates[site] ?? 0;
  line(
    `small (1 KiB)  ${rate('static').toFixed(0).padStart(15)} ${rate('comp').toFixed(0).padStart(11)} ${(rate('comp') / rate('static')).toFixed(2).padStart(18)}`,
  );
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await handler.close();
  await workspace.close();
  await rm(dir, { recursive: true, force: true });
}
