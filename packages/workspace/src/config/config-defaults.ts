import { isAbsolute, resolve } from 'node:path';
import type { z } from 'zod';
import type { BoxagntsConfig } from './config-schema.js';
import type {
  agentSchema,
  hooksSchema,
  managedAgentSchema,
  mcpServerSchema,
  PERMISSION_MODES,
  providerSchema,
} from './config-sections.js';
import type { KeyReference } from './key-reference.js';

/** One provider's overrides as configured. */
export type ProviderConfig = z.output<typeof providerSchema>;
/** One agent's settings as configured (built-ins may set only some fields). */
export type AgentConfig = z.output<typeof agentSchema>;
/** A manager/executor preset as configured. */
export type ManagedAgentPreset = z.output<typeof managedAgentSchema>;
/** One MCP server as configured (its name is the key in `mcpServers`). */
export type McpServerEntry = z.output<typeof mcpServerSchema>;
/** The command hooks as configured. */
export type HooksConfig = z.output<typeof hooksSchema>;
/** The permission modes. */
export type PermissionModeName = (typeof PERMISSION_MODES)[number];

/** Where the store lives, with the sqlite path made absolute. */
export type StoreLocation = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string | KeyReference };

/** `gateway.sites` with defaults: where the static sites are served from and on which origin. */
export interface SitesSettings {
  enabled: boolean;
  /** The address the sites listener binds. */
  host: string;
  /** Its port; undefined means one above the API port (any free one when that is 0). */
  port: number | undefined;
  /** Site `<name>` is served at `<name>.<domain>`. */
  domain: string;
  /** The absolute folder holding one sub-folder per site. */
  folder: string;
  /** Sites with the single-page-app fallback to `index.html`. */
  spa: readonly string[];
  /** Sites served by an HTTP component, by name (config `gateway.sites.components`). */
  components: Readonly<Record<string, SiteComponentSettings>>;
}

/** One entry of `gateway.sites.components` with defaults. */
export interface SiteComponentSettings {
  /** The absolute path of the `.wasm` file. */
  component: string;
  /** `wasi:config/store` values: strings, or key references resolved when the component starts. */
  config: Readonly<Record<string, string | KeyReference>>;
  timeoutMs: number;
  maxMemoryBytes: number;
  maxRequestBytes: number;
  maxResponseBytes: number;
}

/** The configuration with every default filled in and every path absolute. */
export interface ResolvedConfig {
  /** The file it came from. */
  file: string;
  providers: Readonly<Record<string, ProviderConfig>>;
  model: string;
  /** Per-purpose models; each defaults to {@link ResolvedConfig.model}. */
  models: { small: string; compaction: string; title: string; executor: string; fallback: readonly string[] };
  agents: Readonly<Record<string, AgentConfig>>;
  defaultAgent: string;
  managedAgents: Readonly<Record<string, ManagedAgentPreset>>;
  permissions: { mode: PermissionModeName; allow: readonly string[]; ask: readonly string[]; deny: readonly string[] };
  network: { allowedHosts: readonly string[] };
  mcpServers: Readonly<Record<string, McpServerEntry>>;
  /** Absolute skill folders. */
  skills: { folders: readonly string[] };
  hooks: { beforeTool: NonNullable<HooksConfig['beforeTool']>; afterTool: NonNullable<HooksConfig['afterTool']> };
  outputStyle: string;
  gateway: {
    host: string;
    port: number;
    tokens: Readonly<Record<string, KeyReference>>;
    telemetry: boolean;
    /** How long a question of a run watched over HTTP waits for its answer (ms). */
    questions: { timeoutMs: number };
    sites: SitesSettings;
  };
  cron: { enabled: boolean; timezone: string; timeoutMs: number };
  store: StoreLocation;
}

/**
 * Every default the configuration falls back to, in one place. Relative paths are relative to the
 * folder of the config file (the workspace).
 */
export const CONFIG_DEFAULTS = {
  model: 'anthropic/claude-sonnet-4-6',
  defaultAgent: 'build',
  permissionMode: 'default',
  skillFolders: ['skills'],
  outputStyle: 'default',
  gatewayHost: '127.0.0.1',
  gatewayPort: 7433,
  questionTimeoutMs: 600_000,
  sitesDomain: 'localhost',
  sitesFolder: 'root/sites',
  cronEnabled: true,
  cronTimezone: 'UTC',
  cronTimeoutMs: 600_000,
  sqlitePath: '.boxagnts/workspace.db',
} as const;

function absolute(base: string, path: string): string {
  return isAbsolute(path) ? path : resolve(base, path);
}

/** Fills in {@link CONFIG_DEFAULTS}; `baseDir` is the folder relative paths start from. */
export function applyConfigDefaults(config: BoxagntsConfig, file: string, baseDir: string): ResolvedConfig {
  const model = config.model ?? CONFIG_DEFAULTS.model;
  const store: StoreLocation =
    config.store?.kind === 'postgres'
      ? { kind: 'postgres', url: config.store.url }
      : { kind: 'sqlite', path: absolute(baseDir, config.store?.path ?? CONFIG_DEFAULTS.sqlitePath) };
  return {
    file,
    providers: config.providers ?? {},
    model,
    models: {
      small: config.models?.small ?? model,
      compaction: config.models?.compaction ?? model,
      title: config.models?.title ?? config.models?.small ?? model,
      executor: config.models?.executor ?? model,
      fallback: config.models?.fallback ?? [],
    },
    agents: config.agents ?? {},
    defaultAgent: config.defaultAgent ?? CONFIG_DEFAULTS.defaultAgent,
    managedAgents: config.managedAgents ?? {},
    permissions: {
      mode: config.permissions?.mode ?? CONFIG_DEFAULTS.permissionMode,
      allow: config.permissions?.allow ?? [],
      ask: config.permissions?.ask ?? [],
      deny: config.permissions?.deny ?? [],
    },
    network: { allowedHosts: config.network?.allowedHosts ?? [] },
    mcpServers: config.mcpServers ?? {},
    skills: {
      folders: (config.skills?.folders ?? CONFIG_DEFAULTS.skillFolders).map((path) => absolute(baseDir, path)),
    },
    hooks: { beforeTool: config.hooks?.beforeTool ?? [], afterTool: config.hooks?.afterTool ?? [] },
    outputStyle: config.outputStyle ?? CONFIG_DEFAULTS.outputStyle,
    gateway: {
      host: config.gateway?.host ?? CONFIG_DEFAULTS.gatewayHost,
      port: config.gateway?.port ?? CONFIG_DEFAULTS.gatewayPort,
      tokens: config.gateway?.tokens ?? {},
      telemetry: config.gateway?.telemetry ?? false,
      questions: { timeoutMs: config.gateway?.questions?.timeoutMs ?? CONFIG_DEFAULTS.questionTimeoutMs },
      sites: {
        enabled: config.gateway?.sites?.enabled ?? true,
        host: config.gateway?.sites?.host ?? config.gateway?.host ?? CONFIG_DEFAULTS.gatewayHost,
        port: config.gateway?.sites?.port,
        domain: config.gateway?.sites?.domain ?? CONFIG_DEFAULTS.sitesDomain,
        folder: absolute(baseDir, config.gateway?.sites?.folder ?? CONFIG_DEFAULTS.sitesFolder),
        spa: config.gateway?.sites?.spa ?? [],
        components: Object.fromEntries(
          Object.entries(config.gateway?.sites?.components ?? {}).map(([site, entry]) => [
            site,
            {
              component: absolute(baseDir, entry.component),
              config: entry.config ?? {},
              timeoutMs: entry.timeoutMs ?? 30_000,
              maxMemoryBytes: (entry.maxMemoryMiB ?? 256) * 1024 * 1024,
              maxRequestBytes: entry.maxRequestBytes ?? 1024 * 1024,
              maxResponseBytes: entry.maxResponseBytes ?? 64 * 1024 * 1024,
            },
          ]),
        ),
      },
    },
    cron: {
      enabled: config.cron?.enabled ?? CONFIG_DEFAULTS.cronEnabled,
      timezone: config.cron?.timezone ?? CONFIG_DEFAULTS.cronTimezone,
      timeoutMs: config.cron?.timeoutMs ?? CONFIG_DEFAULTS.cronTimeoutMs,
    },
    store,
  };
}
