import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { AnyTool, ToolContext, ToolPermission, ToolResult } from '@boxagnts/tools';
import { errorResult } from '@boxagnts/tools';
import { DEFAULT_PROTECTED_PATHS, DEFAULT_SECRET_PATHS } from '../policy/protected-paths.js';
import { createAddressPolicy } from '../web-fetch/address-policy.js';
import { AllowedHostError, parseAllowedHosts } from '../web-fetch/allowed-hosts.js';
import type { WebFetchLookup } from '../web-fetch/guarded-agent.js';
import { knownBoxAgntsManifest, missingManifestMessage } from './boxagnts-tools.js';
import { defaultCacheDir } from './cache-dir.js';
import { CACHE_MAX_AGE_MS, CACHE_REFRESH_INTERVAL_MS, pruneCacheInBackground, touchCacheEntry } from './cache-prune.js';
import { type CommandManifest, parseCommandManifest, readCommandManifest } from './command-manifest.js';
import { ComponentEgress } from './component-egress.js';
import { ComponentRuntimeError } from './component-runtime-error.js';
import { readCachedDescriptors, writeCachedDescriptors } from './describe-cache.js';
import { type EnvGrant, grantedEnvironment } from './env-grant.js';
import { inputToArgv } from './flag-protocol.js';
import { commandOutcomeToResult, failureResult, functionOutcomeToResult } from './outcome-to-result.js';
import { canonicalRoot, RootLock } from './root-lock.js';
import { createRuntimeTool } from './runtime-tool.js';
import { type FunctionToolDescriptor, parseDescriptors } from './tool-descriptor.js';
import { loadToolsFolder, type ToolsFolderResult } from './tools-folder.js';
import {
  type ComponentKind,
  componentKind,
  ensureTranspiled,
  hashBytes,
  type TranspiledComponent,
} from './transpile-cache.js';
import { WorkerPool } from './worker-pool.js';
import type { GuestPathPolicy, WorkerJob, WorkerOutcome } from './worker-protocol.js';

/** Settings of a {@link ComponentRuntime}; every one has a safe default. */
export interface ComponentRuntimeOptions {
  /** Where transpiled components are cached; default `node_modules/.cache/boxagnts-wasm` or the tmpdir. */
  cacheDir?: string;
  /**
   * Cache entries (transpiled components, worker code caches) no runtime used for this long are
   * removed, in ms, checked once per process and cache folder in the background. Default
   * {@link CACHE_MAX_AGE_MS} (30 days); `Infinity` keeps everything.
   */
  cacheMaxAgeMs?: number;
  /** Worker processes (calls that run at once). Default 2. */
  workers?: number;
  /** Deadline of one call in ms (a tool's own `timeoutMs` wins when smaller). Default 30 000. */
  timeoutMs?: number;
  /** Cap of each guest linear memory (`--wasm-max-mem-pages`). Default 256 MiB. */
  maxMemoryBytes?: number;
  /** Cap of each output (result text, stdout, stderr), keeping head and tail. Default 1 MiB. */
  maxOutputBytes?: number;
  /** The worker entry file; default `worker.mjs` beside the sources, `runtime/worker.cjs` in the build (see README). */
  workerPath?: string;
  /**
   * Root-relative paths no guest may change (create, write, delete, rename), checked on every
   * guest filesystem operation. Default: the path policy's {@link DEFAULT_PROTECTED_PATHS}.
   */
  protectedPaths?: readonly string[];
  /** Root-relative paths no guest may open, change or delete. Default: {@link DEFAULT_SECRET_PATHS}. */
  secretPaths?: readonly string[];
  /** Outgoing `wasi:http` of command tools with the `network` permission (see README). */
  network?: ComponentNetworkOptions;
}

/**
 * Limits of components' outgoing HTTP, the same as `web_fetch`'s: only tools with the `network`
 * permission, only to the call's `ToolContext.allowedHosts`, never to loopback, private,
 * link-local or metadata addresses (checked on the resolved address when connecting), redirects
 * followed by hand and re-checked, a deadline and a cap on the decoded body.
 */
export interface ComponentNetworkOptions {
  /** CIDR ranges exempt from the address checks (as web_fetch's `trustedAddresses`). Default none. */
  trustedAddresses?: readonly string[];
  /** Deadline of one request, connection to last byte (ms). Default 30 000. */
  timeoutMs?: number;
  /** Cap of a decoded response body. Default 5 MiB. */
  maxBytes?: number;
  /** Redirects followed per request. Default 5. */
  maxRedirects?: number;
  /** DNS lookup (tests). Default the system's. */
  lookup?: WebFetchLookup;
}

/** A component given by file or by bytes (with a name for messages). */
export type ComponentSource = { path: string } | { bytes: Uint8Array; name: string };

/** Options for loading a function component. */
export interface LoadFunctionComponentOptions {
  /** Deadline for calls of these tools (ms); default the runtime's. */
  timeoutMs?: number;
  /**
   * Host environment variables the user grants (see {@link EnvGrant}); a tool gets a granted
   * variable it also lists in its descriptor. Default: none, whatever `describe()` names.
   */
  grantEnv?: EnvGrant;
  /** Protected paths for these tools' guests; default the runtime's. */
  protectedPaths?: readonly string[];
  /** Secret paths for these tools' guests; default the runtime's. */
  secretPaths?: readonly string[];
}

/** Options for loading a command tool. */
export interface LoadCommandToolOptions {
  /** Host environment variables the user grants; the tool gets those its manifest lists. Default: none. */
  grantEnv?: EnvGrant;
  /** Protected paths for the tool's guest; default the runtime's. */
  protectedPaths?: readonly string[];
  /** Secret paths for the tool's guest; default the runtime's. */
  secretPaths?: readonly string[];
}

/** Options for loading a tools folder (applied to every component in it). */
export interface LoadToolsFolderOptions {
  /** Host environment variables the user grants, per tool name (or one list for all). Default: none. */
  grantEnv?: EnvGrant;
  /** Protected paths for the guests; default the runtime's. */
  protectedPaths?: readonly string[];
  /** Secret paths for the guests; default the runtime's. */
  secretPaths?: readonly string[];
}

/** A component the runtime has transpiled (see {@link ComponentRuntime.prepare}). */
export interface PreparedComponent {
  readonly hash: string;
  readonly dir: string;
  readonly entry: string;
  /** The path or name it was loaded from, for messages. */
  readonly name: string;
  /** What it exports: a function tool, a command, an HTTP handler, or none of these. */
  readonly kind: ComponentKind;
  /** The interfaces it exports and imports, without versions. */
  readonly exports: readonly string[];
  readonly imports: readonly string[];
}

/** A low-level call: one job on the pool, with the capabilities spelled out. */
export interface ComponentCall {
  component: ComponentSource | PreparedComponent;
  kind: 'describe' | 'function' | 'command';
  /** Host folder preopened at `/` (required for `function` and `command`). */
  root?: string;
  readOnly?: boolean;
  /** Exactly the environment the guest sees. */
  env?: Record<string, string>;
  /** The guest's protected and secret paths; default the runtime's. */
  policy?: Partial<GuestPathPolicy>;
  /** argv for a command. */
  args?: string[];
  /** The egress ticket of a command allowed outgoing HTTP. */
  http?: { port: number; token: string };
  toolName?: string;
  /** JSON text input for a function tool. */
  input?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Counters for tests and diagnostics. */
export interface ComponentRuntimeStats {
  transpiles: number;
  transpileCacheHits: number;
  workersSpawned: number;
}

/**
 * Runs WebAssembly components as tools: function components (the `boxagnts:tool` WIT) and command
 * components (the flag protocol), each call in a worker process with only the capabilities the
 * call grants, a deadline, a memory cap and output caps.
 */
export interface ComponentRuntime {
  /** The tools a function component describes, each calling into the component when executed. */
  loadFunctionComponent(source: ComponentSource, options?: LoadFunctionComponentOptions): Promise<AnyTool[]>;
  /** A command tool from a `.wasm` and its manifest (given, or read from beside the file). */
  loadCommandTool(wasmPath: string, manifest?: unknown, options?: LoadCommandToolOptions): Promise<AnyTool>;
  /** Every tool in a folder of components; a component that fails to load becomes a warning. */
  loadToolsFolder(dir: string, options?: LoadToolsFolderOptions): Promise<ToolsFolderResult>;
  /** Transpiles a component (or finds it in the cache) for {@link ComponentRuntime.call}. */
  prepare(source: ComponentSource): Promise<PreparedComponent>;
  /** Runs one job with explicit capabilities; never rejects for guest failures. */
  call(request: ComponentCall): Promise<WorkerOutcome>;
  /** Transpiles, cache hits and worker processes started so far. */
  stats(): ComponentRuntimeStats;
  /** Kills the worker processes; later calls answer with an error. */
  close(): Promise<void>;
}

const DEFAULTS = { workers: 2, timeoutMs: 30_000, maxMemoryBytes: 256 * 1024 * 1024, maxOutputBytes: 1024 * 1024 };

/**
 * Whether the workers anchor every guest file operation on its real parent folder (Linux, with
 * `/proc`): then read-only calls may run beside a call that changes the same root. Elsewhere
 * they take the root lock too.
 */
const ANCHORED_FILES = process.platform === 'linux' && existsSync('/proc/self/fd');

function frozenPatterns(patterns: readonly string[], option: string): readonly string[] {
  for (const pattern of patterns) {
    if (typeof pattern !== 'string' || pattern.trim() === '' || pattern.includes('\0')) {
      throw new ComponentRuntimeError(
        'invalid-options',
        `${option} has ${JSON.stringify(pattern)}: use globs relative to the root, such as ".git" or "**/AGENTS.md".`,
      );
    }
  }
  return Object.freeze([...patterns]);
}

/**
 * Creates a component runtime with its own worker pool (started lazily on the first call).
 *
 * @example
 * const runtime = createComponentRuntime({ workers: 2, timeoutMs: 10_000 });
 * const tools = await runtime.loadFunctionComponent({ path: 'tools/hello.wasm' });
 * const result = await tools[0].execute({ name: 'Ada' }, context);
 * await runtime.close();
 */
export function createComponentRuntime(options: ComponentRuntimeOptions = {}): ComponentRuntime {
  const settings = { ...DEFAULTS, ...options };
  if (!Number.isInteger(settings.workers) || settings.workers < 1) {
    throw new ComponentRuntimeError('invalid-options', `workers must be a whole number >= 1, got ${settings.workers}.`);
  }
  const cacheMaxAgeMs = options.cacheMaxAgeMs ?? CACHE_MAX_AGE_MS;
  if (Number.isNaN(cacheMaxAgeMs) || cacheMaxAgeMs <= 0) {
    throw new ComponentRuntimeError(
      'invalid-options',
      `cacheMaxAgeMs must be a positive number of milliseconds (or Infinity to keep every cache entry), got ${cacheMaxAgeMs}.`,
    );
  }
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  pruneCacheInBackground(cacheDir, cacheMaxAgeMs);
  const defaultPolicy: GuestPathPolicy = {
    protectedPaths: frozenPatterns(options.protectedPaths ?? DEFAULT_PROTECTED_PATHS, 'protectedPaths'),
    secretPaths: frozenPatterns(options.secretPaths ?? DEFAULT_SECRET_PATHS, 'secretPaths'),
  };
  const pool = new WorkerPool({
    workers: settings.workers,
    maxMemoryBytes: settings.maxMemoryBytes,
    ...(options.workerPath === undefined ? {} : { workerPath: options.workerPath }),
    codeCacheDir: cacheDir,
  });
  const rootLock = new RootLock();
  const egress = new ComponentEgress();
  const addressPolicy = createAddressPolicy(options.network?.trustedAddresses ?? []);
  const prepared = new Map<string, Promise<TranspiledComponent>>();
  const stats = { transpiles: 0, transpileCacheHits: 0 };
  // What this runtime has prepared stays marked used while it lives, so another process's prune
  // never removes a component whose next worker would import it from the cache.
  const keepFresh = setInterval(() => {
    for (const pending of prepared.values())
      pending.then(
        (component) => touchCacheEntry(component.dir),
        () => {},
      );
  }, CACHE_REFRESH_INTERVAL_MS);
  keepFresh.unref();

  async function prepare(source: ComponentSource): Promise<PreparedComponent> {
    const name = 'path' in source ? source.path : source.name;
    const bytes = 'path' in source ? new Uint8Array(await readFile(source.path)) : source.bytes;
    const hash = hashBytes(bytes);
    let pending = prepared.get(hash);
    if (pending === undefined) {
      pending = ensureTranspiled(bytes, cacheDir, name, hash).then((component) => {
        if (component.cacheHit) stats.transpileCacheHits++;
        else stats.transpiles++;
        return component;
      });
      prepared.set(hash, pending);
      pending.catch(() => prepared.delete(hash));
    }
    const component = await pending;
    return {
      hash: component.hash,
      dir: component.dir,
      entry: component.entry,
      name,
      kind: componentKind(component.exports),
      exports: component.exports,
      imports: component.imports,
    };
  }

  function isPrepared(component: ComponentSource | PreparedComponent): component is PreparedComponent {
    return 'hash' in component && 'dir' in component;
  }

  async function runJob(job: WorkerJob, timeoutMs: number, signal?: AbortSignal): Promise<WorkerOutcome> {
    const affinityKey =
      job.kind === 'command'
        ? undefined
        : JSON.stringify([
            job.component.hash,
            job.root ?? null,
            job.readOnly,
            Object.entries(job.env).sort(),
            job.policy,
          ]);
    const run = () =>
      pool.run(job, {
        timeoutMs,
        ...(signal === undefined ? {} : { signal }),
        ...(affinityKey === undefined ? {} : { affinityKey }),
      });
    // Calls that may change a root run one at a time per root. Read-only calls run beside them
    // when the workers anchor their file operations (a swapped folder cannot redirect an open).
    if (job.root === undefined || (job.readOnly && ANCHORED_FILES)) return run();
    return rootLock.withLock(job.root, run);
  }

  async function call(request: ComponentCall): Promise<WorkerOutcome> {
    const component = isPrepared(request.component) ? request.component : await prepare(request.component);
    const job: WorkerJob = {
      kind: request.kind,
      component: { hash: component.hash, dir: component.dir, entry: component.entry },
      ...(request.root === undefined ? {} : { root: await canonicalRoot(request.root) }),
      readOnly: request.readOnly ?? false,
      policy: {
        protectedPaths: request.policy?.protectedPaths ?? defaultPolicy.protectedPaths,
        secretPaths: request.policy?.secretPaths ?? defaultPolicy.secretPaths,
      },
      env: request.env ?? {},
      ...(request.args === undefined ? {} : { args: request.args }),
      ...(request.http === undefined ? {} : { http: { port: request.http.port, token: request.http.token } }),
      ...(request.toolName === undefined ? {} : { toolName: request.toolName }),
      ...(request.input === undefined ? {} : { input: request.input }),
      maxOutputBytes: settings.maxOutputBytes,
    };
    return runJob(job, request.timeoutMs ?? settings.timeoutMs, request.signal);
  }

  /** The guest policy of a load: its own patterns where given, else the runtime's. */
  function guestPolicy(overrides: { protectedPaths?: readonly string[]; secretPaths?: readonly string[] }) {
    return {
      protectedPaths:
        overrides.protectedPaths === undefined
          ? defaultPolicy.protectedPaths
          : frozenPatterns(overrides.protectedPaths, 'protectedPaths'),
      secretPaths:
        overrides.secretPaths === undefined
          ? defaultPolicy.secretPaths
          : frozenPatterns(overrides.secretPaths, 'secretPaths'),
    } satisfies GuestPathPolicy;
  }

  function callTimeout(toolTimeout: number | undefined): number {
    return toolTimeout === undefined ? settings.timeoutMs : Math.min(toolTimeout, settings.timeoutMs);
  }

  /** The component's tool descriptors: from the describe cache, else from a describe call. */
  async function describe(component: PreparedComponent): Promise<FunctionToolDescriptor[]> {
    const name = component.name;
    const cached = await readCachedDescriptors(component.dir);
    if (cached !== undefined) {
      try {
        return parseDescriptors(cached, name);
      } catch {
        // A damaged cache entry: describe again below.
      }
    }
    const described = await call({ component, kind: 'describe', timeoutMs: settings.timeoutMs });
    if (!described.ok || !('descriptors' in described)) {
      const reason = described.ok ? 'no descriptors' : failureResult(described, 'describe').content[0];
      const text =
        reason !== undefined && typeof reason === 'object' && 'text' in reason ? reason.text : String(reason);
      throw new ComponentRuntimeError('invalid-component', `${name}: describe() failed: ${text}`, { file: name });
    }
    const descriptors = parseDescriptors(described.descriptors, name);
    await writeCachedDescriptors(component.dir, described.descriptors);
    return descriptors;
  }

  async function loadFunctionComponent(
    source: ComponentSource,
    loadOptions: LoadFunctionComponentOptions = {},
  ): Promise<AnyTool[]> {
    // The first worker starts while the component is read, hashed and looked up.
    pool.warm();
    const component = await prepare(source);
    if (component.kind !== 'function') throw notAFunctionComponent(component);
    pool.preload({ hash: component.hash, dir: component.dir, entry: component.entry });
    const descriptors = await describe(component);
    const timeoutMs = callTimeout(loadOptions.timeoutMs);
    const policy = guestPolicy(loadOptions);
    return descriptors.map((descriptor) =>
      createRuntimeTool({
        name: descriptor.name,
        description: descriptor.description,
        jsonSchema: descriptor.inputSchema,
        permission: descriptor.permission,
        timeoutMs,
        execute: async (input, context: ToolContext): Promise<ToolResult> => {
          const outcome = await call({
            component,
            kind: 'function',
            root: context.root,
            readOnly: descriptor.permission === 'read-only',
            env: grantedEnvironment(descriptor.env, loadOptions.grantEnv, descriptor.name),
            policy,
            toolName: descriptor.name,
            input: JSON.stringify(input),
            timeoutMs,
            signal: context.signal,
          });
          return functionOutcomeToResult(outcome, descriptor.name);
        },
      }),
    );
  }

  async function loadCommandTool(
    wasmPath: string,
    manifestValue?: unknown,
    commandOptions: LoadCommandToolOptions = {},
  ): Promise<AnyTool> {
    const manifest: CommandManifest | undefined =
      manifestValue === undefined
        ? ((await readCommandManifest(wasmPath)) ?? knownBoxAgntsManifest(wasmPath))
        : parseCommandManifest(manifestValue, `the manifest given for ${basename(wasmPath)}`);
    pool.warm();
    const component = await prepare({ path: wasmPath });
    if (component.kind !== 'command') {
      throw new ComponentRuntimeError(
        'invalid-component',
        component.kind === 'function'
          ? `${wasmPath} is a function component (it exports boxagnts:tool/tool), not a command: load it with loadFunctionComponent, without a manifest.`
          : `${wasmPath} does not export wasi:cli/run${component.kind === 'http' ? ' (it serves HTTP through wasi:http/incoming-handler: a site server, not a tool; mount it with createComponentHttpHandler)' : ''}, so it cannot run as a command tool.`,
        { file: wasmPath },
      );
    }
    if (manifest === undefined) {
      throw new ComponentRuntimeError('invalid-manifest', missingManifestMessage(wasmPath), { file: wasmPath });
    }
    pool.preload({ hash: component.hash, dir: component.dir, entry: component.entry });
    const permission: ToolPermission = manifest.permission;
    const policy = guestPolicy(commandOptions);
    return createRuntimeTool({
      name: manifest.name,
      description: manifest.description,
      jsonSchema: manifest.inputSchema,
      permission,
      timeoutMs: settings.timeoutMs,
      execute: async (input, context) => {
        let ticket: Awaited<ReturnType<ComponentEgress['grant']>> | undefined;
        if (permission === 'network' && (context.allowedHosts ?? []).length > 0) {
          let allowed: ReturnType<typeof parseAllowedHosts>;
          try {
            allowed = parseAllowedHosts(context.allowedHosts ?? []);
          } catch (error) {
            if (error instanceof AllowedHostError) {
              return errorResult(`${manifest.name} cannot use the run's allowed hosts: ${error.message}`);
            }
            throw error;
          }
          ticket = await egress.grant({
            allowed,
            addresses: addressPolicy,
            ...(options.network?.lookup === undefined ? {} : { lookup: options.network.lookup }),
            timeoutMs: options.network?.timeoutMs ?? 30_000,
            maxBytes: options.network?.maxBytes ?? 5 * 1024 * 1024,
            maxRedirects: options.network?.maxRedirects ?? 5,
            signal: context.signal,
          });
        }
        try {
          const outcome = await call({
            component,
            kind: 'command',
            root: context.root,
            readOnly: permission === 'read-only',
            env: grantedEnvironment(manifest.env, commandOptions.grantEnv, manifest.name),
            policy,
            args: inputToArgv(manifest.name, input),
            ...(ticket === undefined ? {} : { http: { port: ticket.port, token: ticket.token } }),
            signal: context.signal,
          });
          return commandOutcomeToResult(outcome, manifest.name);
        } finally {
          ticket?.revoke();
        }
      },
    });
  }

  return {
    loadFunctionComponent,
    loadCommandTool,
    loadToolsFolder: (dir, folderOptions = {}) =>
      loadToolsFolder(dir, {
        kindOf: async (path) => (await prepare({ path })).kind,
        loadFunctionComponent: (source) => loadFunctionComponent(source, folderOptions),
        loadCommandTool: (wasmPath) => loadCommandTool(wasmPath, undefined, folderOptions),
      }),
    prepare,
    call,
    stats: () => ({ ...stats, workersSpawned: pool.spawned }),
    close: async () => {
      clearInterval(keepFresh);
      await pool.close();
      await egress.close();
    },
  };
}

/** The error for loading a component that has no `boxagnts:tool/tool` export as a function component. */
function notAFunctionComponent(component: PreparedComponent): ComponentRuntimeError {
  const message =
    component.kind === 'command'
      ? missingManifestMessage(component.name)
      : component.kind === 'http'
        ? `${component.name} serves HTTP (it exports wasi:http/incoming-handler): it is a site server, not a tool; mount it with createComponentHttpHandler.`
        : `${component.name} exports neither boxagnts:tool/tool (a function tool) nor wasi:cli/run (a command tool); it exports ${component.exports.join(', ') || 'nothing'}.`;
  return new ComponentRuntimeError(component.kind === 'command' ? 'invalid-manifest' : 'invalid-component', message, {
    file: component.name,
  });
}

let shared: ComponentRuntime | undefined;

/**
 * The process-wide runtime with default options, created on first use; the built-in sandboxed
 * tools share it so they share workers and warm instances.
 *
 * @example
 * const tools = await getDefaultRuntime().loadToolsFolder('workspace/tools');
 */
export function getDefaultRuntime(): ComponentRuntime {
  shared ??= createComponentRuntime();
  return shared;
}
