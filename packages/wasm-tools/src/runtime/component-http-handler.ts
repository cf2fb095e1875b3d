import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PROTECTED_PATHS, DEFAULT_SECRET_PATHS } from '../policy/protected-paths.js';
import { type ComponentRuntime, type ComponentSource, getDefaultRuntime } from './component-runtime.js';
import { ComponentRuntimeError } from './component-runtime-error.js';
import { missingAssetMessage } from './package-assets.js';
import { canonicalRoot } from './root-lock.js';
import { EXTENDED_CONST_FLAG } from './worker-pool.js';

/** Options of {@link createComponentHttpHandler}. */
export interface ComponentHttpHandlerOptions {
  /** The folder the component serves, preopened read-only at `/` (a site folder). */
  root: string;
  /**
   * What the component reads through `wasi:config/store` (`get`, `get-all`). BoxAgnts' static
   * server reads `username` / `password` (basic auth), `cache_control`, `fallback_path`,
   * `custom_404_path` and `proxy`. Default: none.
   */
  config?: Readonly<Record<string, string>>;
  /** Transpiles (and caches) the component; default {@link getDefaultRuntime}. */
  runtime?: ComponentRuntime;
  /** Cap of the component's linear memory. Default 256 MiB. */
  maxMemoryBytes?: number;
  /** How long the component may take to start (ms). Default 30 000. */
  startTimeoutMs?: number;
}

/** A mounted HTTP component: a fetch-style handler, and `close()` to stop its process. */
export interface ComponentHttpHandler {
  (request: Request): Promise<Response>;
  /** Stops the component's process; later requests answer 503. */
  close(): Promise<void>;
}

function workerPath(): string {
  const candidates = [
    new URL('./worker-http.mjs', import.meta.url),
    new URL('./runtime/worker-http.mjs', import.meta.url),
  ];
  for (const candidate of candidates) {
    const path = fileURLToPath(candidate);
    if (existsSync(path)) return path;
  }
  const missing = missingAssetMessage(
    'the HTTP component host (worker-http.mjs)',
    candidates.map((url) => fileURLToPath(url)),
    import.meta.url,
  );
  throw new ComponentRuntimeError(missing.bundled ? 'bundled' : 'missing-file', missing.message);
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host', 'content-length']);

function start(child: ChildProcess, job: unknown, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new ComponentRuntimeError('invalid-component', `The HTTP component did not start within ${timeoutMs} ms.`),
      );
    }, timeoutMs);
    child.on('message', (message: { type: string; port?: number; message?: string }) => {
      if (message.type === 'ready') child.send(job as never);
      else if (message.type === 'listening') {
        clearTimeout(timer);
        resolve(message.port as number);
      } else if (message.type === 'failed') {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(
          new ComponentRuntimeError('invalid-component', `The HTTP component failed to start: ${message.message}`),
        );
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(
        new ComponentRuntimeError(
          'invalid-component',
          `The HTTP component's process exited (code ${code}) before serving: ${stderr.trim() || 'no output'}`,
        ),
      );
    });
  });
}

/**
 * Hosts a component that serves HTTP (`wasi:http/incoming-handler`, such as BoxAgnts'
 * `boxed_static_server_component.wasm`) and returns a fetch-style handler, `(Request) =>
 * Promise<Response>`, to mount in any server (Hono: `app.all('/sites/demo/*', (c) =>
 * handler(rewrite(c.req.raw)))`). The component runs in a process of its own with an empty
 * environment, its `root` preopened read-only at `/` behind the path policy (secrets are never
 * opened), `wasi:config/store` answered from `config`, and outgoing HTTP denied. The handler
 * passes method, path with query, headers and body on and returns the component's response; the
 * request's origin is not passed (give the component paths relative to the site).
 *
 * @example
 * const site = await createComponentHttpHandler({ path: 'services/boxed_static_server_component.wasm' }, {
 *   root: 'workspace/root/sites/demo',
 *   config: { username: 'ada', password: 'secret' },
 * });
 * const response = await site(new Request('http://site.local/index.html'));
 * await site.close();
 */
export async function createComponentHttpHandler(
  source: ComponentSource,
  options: ComponentHttpHandlerOptions,
): Promise<ComponentHttpHandler> {
  const runtime = options.runtime ?? getDefaultRuntime();
  const component = await runtime.prepare(source);
  if (component.kind !== 'http') {
    throw new ComponentRuntimeError(
      'invalid-component',
      `${component.name} does not export wasi:http/incoming-handler (it exports ${component.exports.join(', ') || 'nothing'}), so it cannot serve HTTP.`,
      { file: component.name },
    );
  }
  for (const [key, value] of Object.entries(options.config ?? {})) {
    if (typeof value !== 'string') {
      throw new ComponentRuntimeError('invalid-options', `config.${key} must be a string, got ${typeof value}.`);
    }
  }
  const maxMemoryBytes = options.maxMemoryBytes ?? 256 * 1024 * 1024;
  const child = fork(workerPath(), [], {
    execArgv: [
      `--wasm-max-mem-pages=${Math.max(1, Math.floor(maxMemoryBytes / 65536))}`,
      ...EXTENDED_CONST_FLAG,
      `--max-old-space-size=${Math.ceil(maxMemoryBytes / 1048576) + 256}`,
    ],
    env: {},
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'json',
  });
  const port = await start(
    child,
    {
      component: { hash: component.hash, dir: component.dir, entry: component.entry },
      root: await canonicalRoot(options.root),
      config: { ...(options.config ?? {}) },
      policy: { protectedPaths: [...DEFAULT_PROTECTED_PATHS], secretPaths: [...DEFAULT_SECRET_PATHS] },
    },
    options.startTimeoutMs ?? 30_000,
  );
  let closed = false;
  child.once('exit', () => {
    closed = true;
  });
  const handler = async (request: Request): Promise<Response> => {
    if (closed) return new Response('The HTTP component is not running.', { status: 503 });
    const url = new URL(request.url);
    const headers = new Headers();
    request.headers.forEach((value, key) => {
      if (!HOP_BY_HOP.has(key)) headers.set(key, value);
    });
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    let response: Response;
    try {
      response = await fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, {
        method: request.method,
        headers,
        redirect: 'manual',
        signal: request.signal,
        ...(hasBody ? { body: await request.arrayBuffer() } : {}),
      });
    } catch (error) {
      return new Response(`The HTTP component failed: ${(error as Error).message}`, { status: 502 });
    }
    const out = new Headers();
    response.headers.forEach((value, key) => {
      if (!HOP_BY_HOP.has(key)) out.set(key, value);
    });
    return new Response(request.method === 'HEAD' ? null : response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: out,
    });
  };
  return Object.assign(handler, {
    close: async () => {
      if (closed) return;
      closed = true;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  });
}
