import { realpathSync, type Stats, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { isSiteName, type Workspace, workspaceSites } from '@boxagnts/workspace';
import mime from 'mime-types';
import send from 'send';
import { COMPONENT_SITE_METHODS, createComponentSites } from './component-sites.js';
import { GENERATED_PAGE_CSP, listingPage } from './listing-page.js';
import { createSiteCredentialsCache } from './site-credentials-cache.js';
import { parseSiteRequestPath, siteNameOfHost } from './site-request-path.js';

/** The largest custom `404.html` the server reads into memory. */
const MAX_404_BYTES = 1024 * 1024;

/** Options of {@link createSitesHandler}. */
export interface SitesHandlerOptions {
  /** Structured log lines (one per failure); default none. */
  log?: (entry: Record<string, unknown>) => void;
  /** Password checks one client address may cause per minute before 429; default 30. */
  loginAttemptsPerMinute?: number;
}

/** A Node request listener serving the sites of a workspace (see {@link createSitesHandler}). */
export type SitesHandler = RequestListener & {
  /** The URL of a site once a listener serves this handler (set by `listenSites`); else undefined. */
  siteUrl(name: string): string | undefined;
  /** Called by the listener with its port. */
  listening(port: number | undefined): void;
  /** Stops the processes of component sites (config `gateway.sites.components`). */
  close(): Promise<void>;
};

function plain(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'content-security-policy': GENERATED_PAGE_CSP,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(text);
}

/** The segments of `path` under `root` (both real paths), or undefined when it is outside or on a dotfile. */
function inside(root: string, path: string): string[] | undefined {
  if (path === root) return [];
  if (!path.startsWith(root + sep)) return undefined;
  const parts = relative(root, path).split(sep);
  // A symbolic link inside the site may still point at one of its dotfiles: those stay hidden.
  return parts.some((part) => part.startsWith('.') || part === '') ? undefined : parts;
}

// File metadata is read with synchronous calls: on a local disk a stat or realpath takes microseconds,
// while the asynchronous versions each cost a round trip through libuv's thread pool (the benchmark
// in bench/sites.ts measured about three times the requests per second this way).
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The real path of `segments` under the real site root, when it exists and stays inside. */
function resolveInside(root: string, segments: readonly string[]): string | undefined {
  const path = join(root, ...segments);
  try {
    if (statOf(path) === undefined) return undefined;
    const real = realpathSync.native(path);
    return inside(root, real) === undefined ? undefined : real;
  } catch {
    return undefined;
  }
}

/** Encodings the client accepts, by preference (`br` before `gzip` at equal weight). */
function acceptedEncodings(header: string | undefined): ('br' | 'gzip')[] {
  if (header === undefined) return [];
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [token = '', ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((parameter) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(parameter)?.[1]).find(Boolean);
    weights.set(token.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  return (['br', 'gzip'] as const).filter((name) => weight(name) > 0).sort((a, b) => weight(b) - weight(a));
}

/**
 * The request listener of the sites origin. Site `<name>` answers at `<name>.<domain>` (config
 * `gateway.sites.domain`, default `localhost`) from `<sites folder>/<name>/` (default `root/sites/`,
 * where agents write); nothing else answers on this listener: no API route, no other host.
 *
 * Per request: GET and HEAD only; the Host picks the site; its folder must be a real directory
 * (a symbolic link as a site folder is refused); a site with a login asks for basic auth; the path
 * is parsed by {@link parseSiteRequestPath} and resolved through symbolic links, and anything that
 * lands outside the site folder, or on a dotfile, is a 404. A folder redirects to its slash form and
 * serves its `index.html`, else a listing (for a single-page app, the site's `index.html`); a
 * missing file serves the site's `404.html` with status 404. Files go out through `send` (ETag,
 * Last-Modified, 304, Range 206/416, HEAD, content types from `mime-types`); a `.br` or `.gz`
 * sibling is sent instead when the client accepts it, with `Vary: Accept-Encoding`.
 *
 * A site named in `gateway.sites.components` is answered by its `wasi:http` component instead (see
 * `component-sites.ts`), after the same Host, login and path checks; `close()` stops those processes.
 */
export function createSitesHandler(workspace: Workspace, options: SitesHandlerOptions = {}): SitesHandler {
  const sites = workspaceSites(workspace);
  const auth = createSiteCredentialsCache(sites, workspace.secrets.file, options.loginAttemptsPerMinute);
  const log = options.log ?? (() => {});
  const components = createComponentSites(workspace, log);

  async function notFound(
    request: IncomingMessage,
    response: ServerResponse,
    root: string,
    headers: Record<string, string>,
  ): Promise<void> {
    const page = resolveInside(root, ['404.html']);
    if (page !== undefined) {
      const info = statOf(page);
      if (info?.isFile() === true && info.size <= MAX_404_BYTES) {
        const body = await readFile(page).catch(() => undefined);
        if (body !== undefined) {
          response.writeHead(404, {
            ...headers,
            'content-type': 'text/html; charset=utf-8',
            'content-length': String(body.length),
          });
          response.end(request.method === 'HEAD' ? undefined : body);
          return;
        }
      }
    }
    plain(response, 404, 'Not found.\n', headers);
  }

  function sendFile(
    request: IncomingMessage,
    response: ServerResponse,
    root: string,
    file: string,
    headers: Record<string, string>,
  ): Promise<void> {
    return new Promise((resolve) => {
      const parts = relative(root, file).split(sep);
      const stream = send(request, `/${parts.map(encodeURIComponent).join('/')}`, {
        root,
        dotfiles: 'deny',
        index: false,
        cacheControl: false,
        extensions: false,
      });
      for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
      stream.on('error', (error: { status?: number }) => {
        // send reports a failed precondition (412) or range (416, after setting Content-Range) this way too.
        const status = error.status === 412 || error.status === 416 ? error.status : 404;
        if (response.headersSent) response.destroy();
        else
          plain(
            response,
            status,
            status === 404 ? 'Not found.\n' : 'Precondition or range not satisfiable.\n',
            headers,
          );
        resolve();
      });
      stream.on('end', resolve);
      response.on('close', resolve);
      stream.pipe(response);
    });
  }

  async function serveFile(
    request: IncomingMessage,
    response: ServerResponse,
    root: string,
    file: string,
    headers: Record<string, string>,
  ): Promise<void> {
    const type = mime.contentType(extname(file)) || 'application/octet-stream';
    const variants = await Promise.all(
      (['br', 'gzip'] as const).map(async (encoding) => {
        const sibling = resolveInside(root, [relative(root, `${file}.${encoding === 'br' ? 'br' : 'gz'}`)]);
        const info = sibling === undefined ? undefined : statOf(sibling);
        return info?.isFile() === true ? ([encoding, sibling as string] as const) : undefined;
      }),
    );
    const available = new Map(variants.filter((variant) => variant !== undefined));
    if (available.size === 0) return sendFile(request, response, root, file, headers);
    const chosen = acceptedEncodings(request.headers['accept-encoding']).find((encoding) => available.has(encoding));
    const varied = { ...headers, vary: 'Accept-Encoding' };
    if (chosen === undefined) return sendFile(request, response, root, file, varied);
    return sendFile(request, response, root, available.get(chosen) as string, {
      ...varied,
      'content-type': type,
      'content-encoding': chosen,
    });
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const base: Record<string, string> = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
    const settings = workspace.config.gateway.sites;
    const name = siteNameOfHost(request.headers.host, settings.domain, isSiteName);
    const component = name !== undefined && components.has(name);
    const methods: readonly string[] = component ? COMPONENT_SITE_METHODS : ['GET', 'HEAD'];
    if (!methods.includes(request.method ?? '')) {
      return plain(
        response,
        405,
        component ? `Site "${name}" answers ${methods.join(', ')}.\n` : 'Sites are read-only: use GET or HEAD.\n',
        { ...base, allow: methods.join(', ') },
      );
    }
    if (name === undefined) {
      return plain(
        response,
        404,
        `No site here: a site <name> is served at http://<name>.${settings.domain}/.\n`,
        base,
      );
    }
    let root: string;
    try {
      const folder = join(settings.folder, name);
      const info = statOf(folder);
      if (info === undefined) throw new Error('no site');
      root = realpathSync.native(folder);
      // A site folder must be a directory in the sites folder itself, not a link to somewhere else.
      if (!info.isDirectory() || root !== join(realpathSync.native(settings.folder), name))
        throw new Error('not a site');
    } catch {
      return plain(response, 404, `There is no site "${name}".\n`, base);
    }
    const login = await auth.check(name, request.headers.authorization, request.socket.remoteAddress);
    if (typeof login === 'object') {
      return plain(response, 429, 'Too many login attempts: wait and try again.\n', {
        ...base,
        'retry-after': String(login.limited),
      });
    }
    if (login === 'refused') {
      return plain(response, 401, 'This site needs a login.\n', {
        ...base,
        'www-authenticate': `Basic realm="${name}", charset="UTF-8"`,
      });
    }
    const headers = { ...base, 'cache-control': login === 'allowed' ? 'private, no-cache' : 'no-cache' };
    const path = parseSiteRequestPath(request.url ?? '/');
    if (!path.ok) {
      if (path.status === 404 && !component) return notFound(request, response, root, headers);
      return plain(response, path.status, `${path.reason || 'Not found.'}\n`, headers);
    }
    // The same path rules before a component sees the request: no traversal or dotfile ever reaches it.
    if (component) return components.serve(name, root, request, response, headers);
    const target = resolveInside(root, path.segments);
    const info = target === undefined ? undefined : statOf(target);
    if (target !== undefined && info?.isDirectory() === true) {
      if (!path.trailingSlash && path.segments.length > 0) {
        const location = `/${path.segments.map(encodeURIComponent).join('/')}/${path.query}`;
        return plain(response, 301, 'Moved.\n', { ...headers, location });
      }
      const index = resolveInside(root, [...path.segments, 'index.html']);
      if (index !== undefined && statOf(index)?.isFile() === true) {
        return serveFile(request, response, root, index, headers);
      }
      const entries = await readdir(target, { withFileTypes: true }).catch(() => undefined);
      if (entries === undefined) return notFound(request, response, root, headers);
      const page = listingPage(name, path.segments, entries);
      response.writeHead(200, {
        ...headers,
        'content-type': 'text/html; charset=utf-8',
        'content-length': String(Buffer.byteLength(page)),
        'content-security-policy': GENERATED_PAGE_CSP,
      });
      response.end(request.method === 'HEAD' ? undefined : page);
      return;
    }
    if (target !== undefined && info?.isFile() === true) return serveFile(request, response, root, target, headers);
    // A single-page app answers paths that look like its routes (no file extension) with its index.html.
    const last = path.segments.at(-1) ?? '';
    if (settings.spa.includes(name) && !last.includes('.')) {
      const index = resolveInside(root, ['index.html']);
      if (index !== undefined && statOf(index)?.isFile() === true) {
        return serveFile(request, response, root, index, headers);
      }
    }
    return notFound(request, response, root, headers);
  }

  let port: number | undefined;
  const listener: RequestListener = (request, response) => {
    handle(request, response).catch((error: unknown) => {
      log({ level: 'error', message: 'site request failed', error: String((error as Error)?.stack ?? error) });
      if (!response.headersSent) plain(response, 500, 'The site failed on this request.\n');
      else response.destroy();
    });
  };
  return Object.assign(listener, {
    siteUrl: (name: string) =>
      port === undefined ? undefined : `http://${name}.${workspace.config.gateway.sites.domain}:${port}/`,
    listening: (value: number | undefined) => {
      port = value;
    },
    close: () => components.close(),
  });
}
