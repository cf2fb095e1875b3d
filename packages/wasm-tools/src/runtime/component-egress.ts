import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AddressPolicy } from '../web-fetch/address-policy.js';
import type { AllowedHost } from '../web-fetch/allowed-hosts.js';
import { fetchFollowingRedirects } from '../web-fetch/fetch-url.js';
import { createGuardedAgent, type WebFetchLookup } from '../web-fetch/guarded-agent.js';
import { discard, readBody } from '../web-fetch/read-body.js';

// Outgoing `wasi:http` of components goes through the host, under web_fetch's policy: the worker
// rewrites every guest request to this loopback endpoint with a per-call token and the target URL,
// and the host fetches the target with web_fetch's code (allowlist, address checks at connect
// time on the resolved address, redirects by hand re-checked per hop, deadline, decoded-size cap).
// The guest never connects anywhere itself.

/** What one call may reach. */
export interface EgressGrant {
  allowed: readonly AllowedHost[];
  addresses: AddressPolicy;
  lookup?: WebFetchLookup;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  signal: AbortSignal;
}

/** What the worker needs to route a call's requests: the endpoint port and the call's token. */
export interface EgressTicket {
  port: number;
  token: string;
}

function refuse(response: ServerResponse, status: number, reason: string, message: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-boxagnts-refusal': reason });
  response.end(message);
}

/** The host's egress endpoint, started on first use, shared by a runtime's calls. */
export class ComponentEgress {
  private server: Promise<{ server: Server; port: number }> | undefined;
  private readonly grants = new Map<string, EgressGrant>();

  /** Registers a call's grant; the ticket is valid until `revoke()`. */
  async grant(grant: EgressGrant): Promise<EgressTicket & { revoke: () => void }> {
    const { port } = await this.start();
    const token = randomBytes(24).toString('hex');
    this.grants.set(token, grant);
    return { port, token, revoke: () => this.grants.delete(token) };
  }

  async close(): Promise<void> {
    const started = await this.server;
    this.server = undefined;
    this.grants.clear();
    if (started !== undefined) {
      started.server.closeAllConnections();
      await new Promise((resolve) => started.server.close(resolve));
    }
  }

  private start(): Promise<{ server: Server; port: number }> {
    this.server ??= new Promise((resolve, reject) => {
      const server = createServer((request, response) => {
        this.handle(request, response).catch((error: unknown) => {
          if (!response.headersSent) refuse(response, 502, 'network', String(error));
          else response.destroy();
        });
      });
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port }));
    });
    return this.server;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const query = new URL(request.url ?? '/', 'http://egress.invalid').searchParams;
    const grant = this.grants.get(query.get('t') ?? '');
    request.resume();
    if (grant === undefined) return refuse(response, 403, 'no-grant', 'This call may not make HTTP requests.');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return refuse(response, 405, 'method', `Components may send GET and HEAD requests only, not ${request.method}.`);
    }
    let url: URL;
    try {
      url = new URL(query.get('u') ?? '');
    } catch {
      return refuse(response, 400, 'bad-url', `"${query.get('u')}" is not an absolute URL.`);
    }
    const agent = await createGuardedAgent({
      policy: grant.addresses,
      lookup: grant.lookup,
      timeoutMs: grant.timeoutMs,
    });
    const signal = AbortSignal.any([grant.signal, AbortSignal.timeout(grant.timeoutMs)]);
    try {
      const accept = request.headers.accept;
      const outcome = await fetchFollowingRedirects({
        url,
        allowed: grant.allowed,
        addresses: grant.addresses,
        dispatcher: agent,
        signal,
        maxRedirects: grant.maxRedirects,
        userAgent: String(request.headers['user-agent'] ?? 'BoxAgnts-component'),
        accept: typeof accept === 'string' ? accept : '*/*',
      });
      if (!outcome.ok) {
        const status = outcome.reason === 'network' || outcome.reason === 'aborted' ? 502 : 403;
        return refuse(response, status, outcome.reason, outcome.message);
      }
      if (request.method === 'HEAD') {
        discard(outcome.body);
        response.writeHead(outcome.status, { 'content-type': String(outcome.headers['content-type'] ?? '') });
        response.end();
        return;
      }
      const encoding = outcome.headers['content-encoding'];
      const body = await readBody(
        outcome.body,
        Array.isArray(encoding) ? encoding[0] : encoding,
        grant.maxBytes,
        signal,
      );
      const headers: Record<string, string> = { 'content-length': String(body.bytes.length) };
      const type = outcome.headers['content-type'];
      if (typeof type === 'string') headers['content-type'] = type;
      if (body.truncated) headers['x-boxagnts-truncated'] = String(grant.maxBytes);
      response.writeHead(outcome.status, headers);
      response.end(body.bytes);
    } finally {
      await agent.destroy();
    }
  }
}
