import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/**
 * A test file's loopback HTTP servers: `listen(handler)` starts one on 127.0.0.1 and resolves its base
 * URL; every server is closed (open connections first) after each test. Call at the top of the file.
 */
export function loopbackServers(): (handler: RequestListener) => Promise<string> {
  const servers: Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      server.close();
    }
  });
  return async (handler) => {
    const server = createServer(handler);
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
}
