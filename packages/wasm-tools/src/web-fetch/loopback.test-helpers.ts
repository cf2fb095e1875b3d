import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolContext } from '@boxagnts/tools';
import type { WebFetchLookup } from './guarded-agent.js';

/** A real HTTP server on a loopback address that records every request it gets. */
export interface LoopbackServer {
  host: string;
  port: number;
  /** `host:port`, IPv6 hosts in brackets. */
  authority: string;
  /** Paths requested, in order. */
  requests: string[];
  /** Request headers, in order. */
  headers: IncomingMessage['headers'][];
  close(): Promise<void>;
}

/** Starts an HTTP server on `host` (e.g. 127.0.0.1, 127.0.0.2, ::1) at a free port. */
export async function startServer(
  host: string,
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<LoopbackServer> {
  const requests: string[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    headers.push(request.headers);
    handler(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    host,
    port,
    authority: host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`,
    requests,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A resolver over a fixed table (name -> addresses); other names fail like getaddrinfo would. */
export function mapLookup(table: Record<string, string | string[]>): WebFetchLookup {
  return async (hostname) => {
    const entry = table[hostname];
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return (Array.isArray(entry) ? entry : [entry]).map((address) => ({
      address,
      family: address.includes(':') ? 6 : 4,
    }));
  };
}

/** A minimal ToolContext for calling a tool directly. */
export function toolContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    root: '/',
    signal: new AbortController().signal,
    sessionId: 'session',
    turnId: 'turn',
    toolCallId: 'call',
    ...overrides,
  };
}
