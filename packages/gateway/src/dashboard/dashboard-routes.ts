import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import { Hono } from 'hono';
import { lookup as mimeType } from 'mime-types';
import type { GatewayEnv } from '../http/gateway-env.js';

/** Where the dashboard is mounted; `/` redirects here. */
export const DASHBOARD_PATH = '/ui';

/**
 * The dashboard page's Content-Security-Policy: scripts, styles, fonts and connections from the
 * gateway's own origin only, no inline code, no plugins, no framing, no base-URL or form hijack.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
} as const;

interface Asset {
  type: string;
  etag: string;
  identity: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

/** A file of the build, held in memory with its compressed forms (made once, on first request). */
function assetOf(name: string, body: Buffer): Asset {
  return {
    type: mimeType(name) || 'application/octet-stream',
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    identity: body,
  };
}

function compressed(asset: Asset, acceptEncoding: string): { body: Buffer; encoding?: 'br' | 'gzip' } {
  const compressible = /^(text\/|application\/(javascript|json)|image\/svg)/.test(asset.type);
  if (!compressible || asset.identity.length < 1024) return { body: asset.identity };
  if (/\bbr\b/.test(acceptEncoding)) {
    asset.br ??= brotliCompressSync(asset.identity, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: asset.identity.length,
      },
    });
    return { body: asset.br, encoding: 'br' };
  }
  if (/\bgzip\b/.test(acceptEncoding)) {
    asset.gzip ??= gzipSync(asset.identity, { level: 9 });
    return { body: asset.gzip, encoding: 'gzip' };
  }
  return { body: asset.identity };
}

/** Options of {@link dashboardRoutes}. */
export interface DashboardRoutesOptions {
  /** The built dashboard (`index.html`, `assets/`); undefined or missing: a page that says how to build it. */
  folder: string | undefined;
}

/**
 * Serves the dashboard: `GET /` redirects to `/ui/`, every page path under `/ui/` answers the single
 * page (`index.html`, revalidated each time, strict CSP), and `/ui/assets/<hashed name>` the build's
 * files with a year-long immutable cache (their names change with their content), brotli or gzip when
 * the client accepts it. Only names of the build's own `assets/` folder are served: a request for any
 * other file gets the page or a 404, never a file outside the build.
 */
export function dashboardRoutes(options: DashboardRoutesOptions): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  let loaded: Promise<{ index: Asset; assets: Map<string, Asset> } | undefined> | undefined;
  const load = () => {
    loaded ??= (async () => {
      if (options.folder === undefined) return undefined;
      try {
        const index = assetOf('index.html', await readFile(join(options.folder, 'index.html')));
        const assets = new Map<string, Asset>();
        const names = await readdir(join(options.folder, 'assets')).catch(() => [] as string[]);
        for (const name of names) {
          if (/^[\w-][\w.-]*$/.test(name))
            assets.set(name, assetOf(name, await readFile(join(options.folder, 'assets', name))));
        }
        return { index, assets };
      } catch {
        return undefined;
      }
    })();
    return loaded;
  };
  const page = async (acceptEncoding: string) => {
    const build = await load();
    if (build === undefined) {
      return new Response(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>BoxAgnts</title></head><body>' +
          '<h1>The dashboard is not built</h1><p>This gateway was started from a source checkout without the ' +
          'dashboard build: run <code>pnpm --filter @boxagnts/gateway build</code> (or <code>build:dashboard</code>) ' +
          'and reload. The HTTP API works without it.</p></body></html>',
        {
          status: 503,
          headers: { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
        },
      );
    }
    const { body, encoding } = compressed(build.index, acceptEncoding);
    return new Response(new Uint8Array(body), {
      status: 200,
      headers: {
        ...SECURITY_HEADERS,
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        etag: build.index.etag,
        vary: 'accept-encoding',
        ...(encoding === undefined ? {} : { 'content-encoding': encoding }),
      },
    });
  };
  app.get('/', (context) => context.redirect(`${DASHBOARD_PATH}/`, 302));
  app.get(`${DASHBOARD_PATH}/assets/:name`, async (context) => {
    const build = await load();
    const asset = build?.assets.get(context.req.param('name'));
    if (asset === undefined) {
      return context.json(
        {
          error: {
            reason: 'not-found',
            message: 'No such dashboard asset: reload the page to get the current build.',
            issues: [],
          },
        },
        404,
      );
    }
    if (context.req.header('if-none-match') === asset.etag) {
      return new Response(null, {
        status: 304,
        headers: { etag: asset.etag, 'cache-control': 'public, max-age=31536000, immutable' },
      });
    }
    const { body, encoding } = compressed(asset, context.req.header('accept-encoding') ?? '');
    return new Response(new Uint8Array(body), {
      status: 200,
      headers: {
        'content-type':
          asset.type.startsWith('text/') || asset.type === 'application/javascript'
            ? `${asset.type}; charset=utf-8`
            : asset.type,
        'cache-control': 'public, max-age=31536000, immutable',
        etag: asset.etag,
        vary: 'accept-encoding',
        'x-content-type-options': 'nosniff',
        'cross-origin-resource-policy': 'same-origin',
        ...(encoding === undefined ? {} : { 'content-encoding': encoding }),
      },
    });
  });
  app.get(DASHBOARD_PATH, (context) => context.redirect(`${DASHBOARD_PATH}/`, 301));
  app.get(`${DASHBOARD_PATH}/*`, async (context) => {
    const build = await load();
    if (build !== undefined && context.req.header('if-none-match') === build.index.etag) {
      return new Response(null, { status: 304, headers: { etag: build.index.etag, 'cache-control': 'no-cache' } });
    }
    return page(context.req.header('accept-encoding') ?? '');
  });
  return app;
}

/** Whether a request is for the dashboard's page or assets (public: they hold no data; the API calls they make need the token). */
export function isDashboardRequest(method: string, path: string): boolean {
  return (
    (method === 'GET' || method === 'HEAD') &&
    (path === '/' || path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`))
  );
}
