import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openWorkspace, type Workspace } from '@boxagnts/workspace';
import { createSitesHandler, type SitesHandlerOptions } from './sites-server.js';

/** A reply of the sites server. */
export interface SiteReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** A workspace with its sites handler on a loopback port, and a raw HTTP client for it. */
export interface SitesRig {
  dir: string;
  workspace: Workspace;
  /** `<workspace>/root/sites`. */
  folder: string;
  port: number;
  /** Writes `files` (path relative to the sites folder, content). */
  write(files: Record<string, string | Buffer>): Promise<void>;
  /** Sends `path` exactly as given (no URL normalisation) with `Host: <site>.localhost:<port>`. */
  get(site: string, path: string, options?: { method?: string; headers?: Record<string, string> }): Promise<SiteReply>;
  /** Writes raw bytes on a socket and returns the status line and the rest. */
  raw(text: string): Promise<string>;
  close(): Promise<void>;
}

/** Opens a temporary workspace (with `config`) and serves its sites on a free loopback port. */
export async function startSitesRig(
  config: Record<string, unknown> = {},
  options: SitesHandlerOptions = {},
): Promise<SitesRig> {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-sites-'));
  await writeFile(join(dir, 'boxagnts.json'), JSON.stringify(config));
  const workspace = await openWorkspace(dir);
  const folder = workspace.config.gateway.sites.folder;
  await mkdir(folder, { recursive: true });
  const handler = createSitesHandler(workspace, options);
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    dir,
    workspace,
    folder,
    port,
    async write(files) {
      for (const [path, content] of Object.entries(files)) {
        await mkdir(dirname(join(folder, path)), { recursive: true });
        await writeFile(join(folder, path), content);
      }
    },
    get(site, path, options = {}) {
      return new Promise((resolve, reject) => {
        const outgoing = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path,
            method: options.method ?? 'GET',
            setHost: false,
            headers: { host: `${site}.localhost:${port}`, ...options.headers },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => {
              const body = Buffer.concat(chunks);
              resolve({ status: response.statusCode ?? 0, headers: response.headers, body, text: body.toString() });
            });
          },
        );
        outgoing.on('error', reject);
        outgoing.end();
      });
    },
    raw(text) {
      return new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(text));
        let received = '';
        socket.on('data', (chunk) => {
          received += chunk.toString('latin1');
        });
        socket.on('end', () => resolve(received));
        socket.on('error', reject);
      });
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await handler.close();
      await workspace.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
