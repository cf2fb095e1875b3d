// The servers of bench/sites.ts, in a child process of their own so the load client does not share
// their event loop: the gateway's sites handler and sirv (production and dev mode) over one folder.
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type RequestListener } from 'node:http';
import { join } from 'node:path';
import { openWorkspace } from '@boxagnts/workspace';
import sirv from 'sirv';
import { createSitesHandler } from '../src/index.js';

const dir = process.argv[2] as string;
await writeFile(join(dir, 'boxagnts.json'), '{}');
const workspace = await openWorkspace(dir);
const folder = join(workspace.config.gateway.sites.folder, 'bench');
await mkdir(folder, { recursive: true });
await writeFile(join(folder, 'small.html'), `<!doctype html><p>${'small page '.repeat(90)}</p>\n`);
await writeFile(join(folder, 'large.bin'), Buffer.alloc(1024 * 1024, 7));

async function listen(handler: RequestListener): Promise<number> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return typeof address === 'object' && address !== null ? address.port : 0;
}

const ports = {
  sites: await listen(createSitesHandler(workspace)),
  sirv: await listen(sirv(folder, { etag: true }) as unknown as RequestListener),
  sirvDev: await listen(sirv(folder, { etag: true, dev: true }) as unknown as RequestListener),
};
process.stdout.write(`${JSON.stringify(ports)}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
