import { join } from 'node:path';
import type { ProviderRegistry } from '@boxagnts/api';
import { createComponentRuntime } from '@boxagnts/wasm-tools';
import { openWorkspace, type Workspace } from '@boxagnts/workspace';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import { AgentPool } from './agent/agent-pool.js';
import { type Agent, type CreateAgentOptions, createAgent } from './agent/create-agent.js';
import { createWorkspaceRegistry } from './agent/workspace-providers.js';
import { CronScheduler, type CronSchedulerOptions } from './cron/cron-scheduler.js';
import { defaultDashboardFolder } from './dashboard/dashboard-folder.js';
import { GatewayError } from './gateway-error.js';
import { createGatewayApp, type GatewayLog } from './http/create-app.js';
import type { GatewayEnv, GatewayServices } from './http/gateway-env.js';
import { cronRoutes } from './http/routes-cron.js';
import { sitesRoutes } from './http/routes-sites.js';
import { openaiRoutes } from './openai/openai-routes.js';
import { openRunBackend, type RunsOptions } from './runs/run-backend.js';
import { RunManager } from './runs/run-manager.js';
import type { RunRecord } from './runs/run-types.js';
import { isLoopbackHost, type SecurityOptions } from './security/security-options.js';
import { openTokenStore, type TokenStore } from './security/token-store.js';
import { listenSites, type SitesListener } from './sites/listen-sites.js';
import { createSitesHandler, type SitesHandler } from './sites/sites-server.js';

/** Options of {@link createGateway}. */
export interface GatewayOptions extends Pick<CreateAgentOptions, 'plugins' | 'sandbox' | 'ask' | 'telemetry'> {
  /** An open workspace or its folder (opened, created when missing, closed by `close()`). */
  workspace: Workspace | string;
  /** The address the server will bind; default the config's `gateway.host` (127.0.0.1). Used by the security defaults. */
  host?: string;
  security?: SecurityOptions;
  /** Milliseconds between SSE heartbeats; default 15,000. */
  heartbeatMs?: number;
  /** Structured log lines (JSON objects); default none. */
  log?: GatewayLog;
  /** Find and resume or interrupt runs an earlier process left unfinished; default true. */
  recover?: boolean;
  /** Applied to each agent's provider registry (third-party providers). */
  registry?: () => ProviderRegistry;
  /**
   * The cron scheduler: on by default (`true`); `false` fires nothing (the jobs stay in the store);
   * an object tunes it (clock, grace period, sync interval, abandon margin).
   */
  cron?: boolean | Pick<CronSchedulerOptions, 'clock' | 'graceMs' | 'syncIntervalMs' | 'abandonMarginMs'>;
  /** Runs: lease and concurrency with a PostgreSQL store (scale-out), shutdown grace, abandonment. */
  runs?: RunsOptions;
  /**
   * The web dashboard at `/ui/` (`/` redirects there): on by default, from this package's build
   * (`dist/ui/`); `{ folder }` serves another build; `false` serves none.
   */
  dashboard?: boolean | { folder: string };
}

/** A gateway: the app, the run manager and the composed agents of one workspace. */
export interface Gateway {
  readonly app: Hono<GatewayEnv>;
  readonly workspace: Workspace;
  readonly runs: RunManager;
  readonly tokens: TokenStore;
  /** The request listener of the sites origin (`node:http` style); `startGateway` serves it on a port of its own. */
  readonly sites: SitesHandler;
  /** The cached agent of a name and model. */
  agent(name?: string, model?: string): Promise<Agent>;
  /** The cron scheduler firing the workspace's jobs; undefined with `cron: false`. */
  readonly cron: CronScheduler | undefined;
  /** What {@link RunManager.recover} did at start. */
  readonly recovered: Awaited<ReturnType<RunManager['recover']>>;
  close(): Promise<void>;
}

async function configTokens(workspace: Workspace): Promise<Record<string, string>> {
  const tokens: Record<string, string> = {};
  for (const [name, reference] of Object.entries(workspace.config.gateway.tokens)) {
    tokens[name] = (await workspace.resolveKey(reference, `gateway.tokens.${name}`)).reveal();
  }
  return tokens;
}

/**
 * Builds the gateway of a workspace: one composed agent per agent and model (made on first use),
 * the run log and token tables in the workspace's SQLite file, the HTTP app, and recovery of runs
 * an earlier process left unfinished. Serve `app.fetch` with any server, or use `startGateway`.
 *
 * @example
 * const gateway = await createGateway({ workspace: './my-workspace' });
 * const response = await gateway.app.request('/sessions', { headers: { host: '127.0.0.1' } });
 */
export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const owned = typeof options.workspace === 'string';
  const workspace = typeof options.workspace === 'string' ? await openWorkspace(options.workspace) : options.workspace;
  const host = options.host ?? workspace.config.gateway.host;
  // First: it checks gateway.sites.components, and a refused config must leave nothing open.
  let sitesHandler: SitesHandler;
  try {
    sitesHandler = createSitesHandler(workspace, options.log === undefined ? {} : { log: options.log });
  } catch (error) {
    if (owned) await workspace.close();
    throw error;
  }
  const databasePath =
    workspace.config.store.kind === 'sqlite' ? workspace.config.store.path : join(workspace.paths.state, 'gateway.db');
  const tokens = openTokenStore(databasePath, await configTokens(workspace));
  if ((options.security?.requireToken ?? !isLoopbackHost(host)) && !tokens.hasTokens()) {
    tokens.close();
    if (owned) await workspace.close();
    throw new GatewayError({
      reason: 'configuration',
      message: isLoopbackHost(host)
        ? 'Tokens are required (security.requireToken) but none exists: create one with `boxagnts token create <name>` (or gateway.tokens in the config).'
        : `The gateway binds ${host}, which is not loopback, so it needs a bearer token: create one with \`boxagnts token create <name>\` (or gateway.tokens in the config), or bind 127.0.0.1.`,
    });
  }
  const backend = await openRunBackend(workspace, databasePath, options.runs).catch(async (error: unknown) => {
    tokens.close();
    if (owned) await workspace.close();
    throw error;
  });
  const log = backend.log;
  const runtime = options.sandbox?.runtime ?? createComponentRuntime();
  const makeAgent = (name?: string, model?: string): Promise<Agent> =>
    createAgent({
      workspace,
      ...(name === undefined ? {} : { agent: name }),
      ...(model === undefined ? {} : { model }),
      ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
      sandbox: { ...options.sandbox, runtime },
      ...(options.ask === undefined ? {} : { ask: options.ask }),
      ...(options.registry === undefined ? {} : { registry: options.registry() }),
      ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
    });
  // Listings (tools, MCP states) use one agent per name and model; runs lease their own from the pool.
  const listed = new Map<string, Promise<Agent>>();
  const agentFor = (name?: string, model?: string): Promise<Agent> => {
    const key = `${name ?? workspace.config.defaultAgent}\u0000${model ?? ''}`;
    let agent = listed.get(key);
    if (agent === undefined) {
      agent = makeAgent(name, model);
      listed.set(key, agent);
      agent.catch(() => listed.delete(key));
    }
    return agent;
  };
  const pool = new AgentPool(makeAgent, () => workspace.config.permissions.mode);
  let registry: Promise<ProviderRegistry> | undefined;
  const runs = new RunManager({
    log,
    acquireAgent: (name, model) => pool.acquire(name, model),
    defaultAgent: workspace.config.defaultAgent,
    hasAgent: (name) => workspace.agents[name] !== undefined,
    ...(backend.queue === undefined ? {} : { queue: backend.queue }),
    ...(backend.signals === undefined ? {} : { signals: backend.signals }),
    shutdownGraceMs: backend.shutdownGraceMs,
    ...(options.runs?.abandonAfterMs === undefined ? {} : { abandonAfterMs: options.runs.abandonAfterMs }),
    // One structured line per finished run: ids, status and reason, never its text or input.
    ...(options.log === undefined
      ? {}
      : {
          onRunEnd: (record: RunRecord) =>
            options.log?.({
              event: 'run-end',
              runId: record.id,
              sessionId: record.sessionId,
              agent: record.agent,
              ...(record.model === undefined ? {} : { model: record.model }),
              status: record.status,
              ...(record.reason === undefined ? {} : { reason: record.reason }),
              durationMs: record.updatedAt - record.createdAt,
            }),
        }),
  });
  const cronSettings = typeof options.cron === 'object' ? options.cron : {};
  const cron =
    options.cron === false
      ? undefined
      : new CronScheduler({
          store: workspace.store.cron,
          runs,
          ...cronSettings,
          ...(options.log === undefined ? {} : { log: options.log }),
        });
  const services: GatewayServices = {
    workspace,
    runs,
    agent: agentFor,
    acquireAgent: (name, model) => pool.acquire(name ?? workspace.config.defaultAgent, model),
    registry: () => {
      registry ??= createWorkspaceRegistry(workspace, options.registry?.());
      return registry;
    },
    heartbeatMs: options.heartbeatMs ?? 15_000,
    refreshAgents: () => {
      pool.refresh();
      const stale = [...listed.values()];
      listed.clear();
      for (const agent of stale) void agent.then((made) => made.close()).catch(() => undefined);
    },
  };
  const app = createGatewayApp({
    services,
    guard: { ...options.security, boundHost: host, tokens },
    extraRoutes: [openaiRoutes(services), sitesRoutes(services, sitesHandler), cronRoutes(services, cron)],
    ...(options.log === undefined ? {} : { log: options.log }),
    dashboard:
      options.dashboard === false
        ? false
        : { folder: typeof options.dashboard === 'object' ? options.dashboard.folder : defaultDashboardFolder() },
  });
  // With a shared (PostgreSQL) log, runs another gateway left are taken over through the queue's leases.
  const recovered =
    options.recover === false || backend.kind === 'postgres'
      ? { resumed: [], interrupted: [], started: [] }
      : await runs.recover();
  await runs.startWorking();
  // After recovery, so a cron run the last process left is resumed before its log row is settled.
  await cron?.start();
  let closed = false;
  return {
    app,
    workspace,
    runs,
    cron,
    tokens,
    sites: sitesHandler,
    agent: agentFor,
    recovered,
    async close() {
      if (closed) return;
      closed = true;
      await cron?.stop();
      await sitesHandler.close();
      await runs.close();
      await pool.close();
      for (const agent of listed.values()) await agent.then((made) => made.close()).catch(() => undefined);
      if (options.sandbox?.runtime === undefined) await runtime.close();
      await backend.close();
      tokens.close();
      if (owned) await workspace.close();
    },
  };
}

/** A gateway listening on a port. */
export interface RunningGateway extends Gateway {
  /** `http://host:port`. */
  readonly url: string;
  readonly port: number;
  /** The sites listener (config `gateway.sites`); undefined when `gateway.sites.enabled` is false. */
  readonly sitesListener: SitesListener | undefined;
}

/**
 * Starts a gateway on `host:port` (defaults from the config's `gateway` section: 127.0.0.1:7433;
 * port 0 picks a free one).
 *
 * @example
 * const gateway = await startGateway({ workspace: './my-workspace', port: 0 });
 * console.log(gateway.url);
 */
export async function startGateway(options: GatewayOptions & { port?: number }): Promise<RunningGateway> {
  const gateway = await createGateway(options);
  const host = options.host ?? gateway.workspace.config.gateway.host;
  const server = createAdaptorServer({ fetch: gateway.app.fetch, hostname: host });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? gateway.workspace.config.gateway.port, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  }).catch(async (error: unknown) => {
    await gateway.close();
    throw new GatewayError({
      reason: 'configuration',
      message: `Cannot listen on ${host}: ${(error as Error).message}`,
      cause: error,
    });
  });
  const sitesSettings = gateway.workspace.config.gateway.sites;
  // The port asked for, not the one bound: with port 0 the sites take any free port too, never the bound
  // port + 1, which another process may hold.
  const requestedPort = options.port ?? gateway.workspace.config.gateway.port;
  const sitesListener = sitesSettings.enabled
    ? await listenSites(gateway.sites, sitesSettings, requestedPort).catch(async (error: unknown) => {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await gateway.close();
        throw error;
      })
    : undefined;
  const display = host.includes(':') ? `[${host}]` : host;
  return {
    ...gateway,
    app: gateway.app,
    workspace: gateway.workspace,
    runs: gateway.runs,
    tokens: gateway.tokens,
    recovered: gateway.recovered,
    url: `http://${display}:${port}`,
    port,
    sitesListener,
    async close() {
      await sitesListener?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await gateway.close();
    },
  };
}
