import { realpathSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { type ComponentHttpHandler, createComponentHttpHandler } from '@boxagnts/wasm-tools';
import type { SiteComponentSettings, Workspace } from '@boxagnts/workspace';
import { GatewayError } from '../gateway-error.js';

/** Methods a component site is offered; anything else is a 405 before the component is asked. */
export const COMPONENT_SITE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

// Headers that describe one hop, never passed between the client and the component.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
]);

// The texts createComponentHttpHandler answers with when its process is gone: the site restarts it.
const HANDLER_DOWN = /^The HTTP component (failed|is not running)/;

/** Where `path` lies under one of `folders` (lexically); false for anything outside. */
function under(path: string, folders: readonly string[]): boolean {
  return folders.some((folder) => {
    const rest = relative(folder, path);
    return rest !== '' && !rest.startsWith(`..${sep}`) && rest !== '..' && !rest.startsWith(sep);
  });
}

/** The component sites of a workspace: one process per site, started on its first request. */
export interface ComponentSites {
  /** Whether site `name` is served by a component. */
  has(name: string): boolean;
  /** Answers one request of site `name` (its folder `root`, already checked and authorised). */
  serve(
    name: string,
    root: string,
    request: IncomingMessage,
    response: ServerResponse,
    headers: Record<string, string>,
  ): Promise<void>;
  /** Stops every component process; later requests answer 503. */
  close(): Promise<void>;
}

function plain(response: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
  response.writeHead(status, {
    ...headers,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
  });
  response.end(text);
}

/**
 * Reads the request body, or undefined once it passes `limit` bytes (then the rest is left unread, the
 * stream paused, so the 413 can still be written before the connection closes).
 */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.off('data', onData);
        request.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.once('end', () => resolve(Buffer.concat(chunks)));
    request.once('error', reject);
  });
}

/**
 * Checks `gateway.sites.components` (each component under the workspace's `tools/` or `sites/`
 * folder) and returns the component sites. A process starts on a site's first request, with the
 * site folder read-only as its root and its `wasi:config` values (key references resolved from the
 * secrets file or the environment). A request that passes its `timeoutMs` answers 504 and the
 * process is restarted; a process that crashed answers 502 and is restarted on the next request.
 */
export function createComponentSites(
  workspace: Workspace,
  log: (entry: Record<string, unknown>) => void,
): ComponentSites {
  const settings = workspace.config.gateway.sites.components;
  const allowed = [workspace.paths.tools, workspace.paths.sites];
  for (const [name, entry] of Object.entries(settings)) {
    if (!under(entry.component, allowed)) {
      throw new GatewayError({
        reason: 'configuration',
        message: `gateway.sites.components.${name}.component must be a file under the workspace's tools/ or sites/ folder (${allowed.join(', ')}), not ${entry.component}.`,
      });
    }
  }
  const running = new Map<string, Promise<ComponentHttpHandler>>();
  let closed = false;

  async function start(name: string, entry: SiteComponentSettings, root: string): Promise<ComponentHttpHandler> {
    // The real file must also stay inside: a link in tools/ must not lead to a component elsewhere.
    const real = realpathSync.native(entry.component);
    const realAllowed = allowed.map((folder) => {
      try {
        return realpathSync.native(folder);
      } catch {
        return folder;
      }
    });
    if (!under(real, realAllowed)) {
      throw new Error(`${entry.component} leads outside the workspace's tools/ and sites/ folders`);
    }
    const config: Record<string, string> = {};
    for (const [key, value] of Object.entries(entry.config)) {
      config[key] =
        typeof value === 'string'
          ? value
          : (await workspace.resolveKey(value, `gateway.sites.components.${name}.config.${key}`)).reveal();
    }
    return createComponentHttpHandler({ path: real }, { root, config, maxMemoryBytes: entry.maxMemoryBytes });
  }

  function handlerOf(name: string, entry: SiteComponentSettings, root: string): Promise<ComponentHttpHandler> {
    let handler = running.get(name);
    if (handler === undefined) {
      handler = start(name, entry, root);
      running.set(name, handler);
      // A failed start is not kept: the next request tries again (after the file or secret is fixed).
      handler.catch(() => {
        if (running.get(name) === handler) running.delete(name);
      });
    }
    return handler;
  }

  // createComponentHttpHandler answers 503 without asking anyone once its process has exited.
  async function alive(handler: ComponentHttpHandler): Promise<boolean> {
    const probe = await handler(new Request('http://probe.site/', { method: 'HEAD', signal: AbortSignal.abort() }));
    if (probe.status !== 503) return true;
    return !HANDLER_DOWN.test(await probe.text());
  }

  function restart(name: string, handler: Promise<ComponentHttpHandler>): void {
    if (running.get(name) === handler) running.delete(name);
    handler.then((made) => made.close()).catch(() => undefined);
  }

  async function serve(
    name: string,
    root: string,
    request: IncomingMessage,
    response: ServerResponse,
    headers: Record<string, string>,
  ): Promise<void> {
    const entry = settings[name] as SiteComponentSettings;
    if (closed) return plain(response, 503, 'The gateway is closing.\n', headers);
    const method = request.method ?? 'GET';
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const body = hasBody ? await readBody(request, entry.maxRequestBytes) : undefined;
    if (hasBody && body === undefined) {
      return plain(response, 413, `The request body is larger than ${entry.maxRequestBytes} bytes.\n`, {
        ...headers,
        connection: 'close',
      });
    }
    let pending = handlerOf(name, entry, root);
    let handler: ComponentHttpHandler;
    try {
      handler = await pending;
      if (!(await alive(handler))) {
        // The process died since the last request (nothing was asked of it): start a fresh one.
        log({ level: 'error', message: 'site component had exited; restarting', site: name });
        restart(name, pending);
        pending = handlerOf(name, entry, root);
        handler = await pending;
      }
    } catch (error) {
      log({ level: 'error', message: 'site component failed to start', site: name, error: String(error) });
      return plain(response, 502, `The component of site "${name}" failed to start.\n`, headers);
    }
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, entry.timeoutMs);
    const clientGone = () => {
      if (!response.writableFinished) controller.abort();
    };
    response.on('close', clientGone);
    try {
      const outgoing = new Headers();
      for (const [key, value] of Object.entries(request.headers)) {
        if (value === undefined || HOP_BY_HOP.has(key)) continue;
        for (const one of Array.isArray(value) ? value : [value]) outgoing.append(key, one);
      }
      const ask = (target: ComponentHttpHandler) =>
        target(
          new Request(`http://${name}.site${request.url ?? '/'}`, {
            method,
            headers: outgoing,
            signal: controller.signal,
            ...(body === undefined ? {} : { body }),
          }),
        );
      let answer: Response;
      for (let attempt = 0; ; attempt++) {
        answer = await ask(handler);
        if (timedOut) {
          restart(name, pending);
          log({ level: 'error', message: 'site component timed out', site: name, timeoutMs: entry.timeoutMs });
          return plain(response, 504, `The component of site "${name}" did not answer in time.\n`, headers);
        }
        if (controller.signal.aborted) {
          // The client went away: nothing to answer, and the component is fine.
          await answer.body?.cancel().catch(() => undefined);
          return;
        }
        if ((answer.status !== 502 && answer.status !== 503) || answer.body === null) break;
        const text = await answer.clone().text();
        if (!HANDLER_DOWN.test(text)) break;
        restart(name, pending);
        log({ level: 'error', message: 'site component crashed', site: name, detail: text.slice(0, 500) });
        // A GET or HEAD changes nothing, so a fresh process is asked once; other methods are not replayed.
        if (attempt > 0 || (method !== 'GET' && method !== 'HEAD')) {
          return plain(response, 502, `The component of site "${name}" failed on this request.\n`, headers);
        }
        pending = handlerOf(name, entry, root);
        handler = await pending;
      }
      const declared = Number(answer.headers.get('content-length') ?? 0);
      if (declared > entry.maxResponseBytes) {
        await answer.body?.cancel().catch(() => undefined);
        log({ level: 'error', message: 'site component response too large', site: name, bytes: declared });
        return plain(response, 502, `The component of site "${name}" answered with too large a body.\n`, headers);
      }
      const out: Record<string, string | string[]> = { ...headers };
      answer.headers.forEach((value, key) => {
        if (!HOP_BY_HOP.has(key)) out[key] = key === 'set-cookie' ? answer.headers.getSetCookie() : value;
      });
      if (answer.headers.has('content-length') && method !== 'HEAD') out['content-length'] = String(declared);
      response.writeHead(answer.status, out);
      if (answer.body === null || method === 'HEAD') {
        response.end();
        return;
      }
      let sent = 0;
      const stream = Readable.fromWeb(answer.body as WebReadableStream<Uint8Array>);
      await new Promise<void>((resolve) => {
        stream.on('data', (chunk: Buffer) => {
          sent += chunk.length;
          if (sent > entry.maxResponseBytes) {
            log({ level: 'error', message: 'site component response too large', site: name, bytes: sent });
            stream.destroy();
            response.destroy();
            resolve();
          }
        });
        stream.on('error', () => {
          response.destroy();
          resolve();
        });
        response.on('close', resolve);
        stream.on('end', resolve);
        stream.pipe(response);
      });
      if (timedOut) {
        restart(name, pending);
        response.destroy();
      }
    } catch (error) {
      if (timedOut) {
        restart(name, pending);
        log({ level: 'error', message: 'site component timed out', site: name, timeoutMs: entry.timeoutMs });
        if (!response.headersSent) {
          return plain(response, 504, `The component of site "${name}" did not answer in time.\n`, headers);
        }
      } else log({ level: 'error', message: 'site component request failed', site: name, error: String(error) });
      if (!response.headersSent && !response.destroyed) {
        plain(response, 502, `The component of site "${name}" failed on this request.\n`, headers);
      } else response.destroy();
    } finally {
      clearTimeout(timer);
      response.off('close', clientGone);
    }
  }

  return {
    has: (name) => Object.hasOwn(settings, name),
    serve,
    async close() {
      closed = true;
      const handlers = [...running.values()];
      running.clear();
      await Promise.all(handlers.map((handler) => handler.then((made) => made.close()).catch(() => undefined)));
    },
  };
}
