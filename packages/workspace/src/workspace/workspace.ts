import { inspect } from 'node:util';
import type { JSONPath } from 'jsonc-parser';
import { type AgentsMd, composeAgentsMd } from '../config/agents-md.js';
import type { ResolvedConfig } from '../config/config-defaults.js';
import { ConfigError } from '../config/config-error.js';
import { envValuesOf, scrubEnvValues } from '../config/env-values.js';
import type { KeyReference } from '../config/key-reference.js';
import { type LoadConfigOptions, loadConfig } from '../config/load-config.js';
import { loadOutputStyles, type OutputStyle } from '../config/output-styles.js';
import { resolveKeyReference } from '../config/resolve-key-reference.js';
import type { Secret } from '../config/secret.js';
import type { SecretStore } from '../config/secret-store.js';
import { type JsonValue, setConfigValue, updateConfig } from '../config/update-config.js';
import type { WorkspaceStore } from '../store/store-types.js';
import { mergeAgents, type WorkspaceAgent } from './workspace-agents.js';
import type { WorkspaceLogger } from './workspace-logger.js';
import type { WorkspacePaths } from './workspace-paths.js';

/** What a {@link Workspace} is built from (by `openWorkspace`). */
export interface WorkspaceParts {
  paths: WorkspacePaths;
  config: ResolvedConfig;
  secrets: SecretStore;
  store: WorkspaceStore;
  logger: WorkspaceLogger;
  env: Readonly<Record<string, string | undefined>>;
  home: string | undefined;
  agentsMdMaxBytes: number | undefined;
  /** Values handed out by {@link Workspace.providerKey}, for the masking logger. */
  knownSecrets: Set<string>;
}

/**
 * An open workspace: its folders, configuration, secrets, store and agents. Each instance owns its
 * state, so several workspaces can be open in one process. JSON and `util.inspect` show the folder,
 * paths, config and agents, never a secret.
 */
export class Workspace {
  readonly paths: WorkspacePaths;
  readonly secrets: SecretStore;
  readonly store: WorkspaceStore;
  readonly #logger: WorkspaceLogger;
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #home: string | undefined;
  readonly #agentsMdMaxBytes: number | undefined;
  readonly #knownSecrets: Set<string>;
  #config: ResolvedConfig;
  #agents: Readonly<Record<string, WorkspaceAgent>>;
  #updates: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(parts: WorkspaceParts) {
    this.paths = parts.paths;
    this.secrets = parts.secrets;
    this.store = parts.store;
    this.#logger = parts.logger;
    this.#env = parts.env;
    this.#home = parts.home;
    this.#agentsMdMaxBytes = parts.agentsMdMaxBytes;
    this.#knownSecrets = parts.knownSecrets;
    this.#config = parts.config;
    this.#agents = mergeAgents(parts.config.agents);
  }

  /** The workspace folder. */
  get dir(): string {
    return this.paths.dir;
  }

  /** The configuration as last loaded or updated (defaults filled in). */
  get config(): ResolvedConfig {
    return this.#config;
  }

  /** The built-in agents with configured overrides, plus the configured agents, by name. */
  get agents(): Readonly<Record<string, WorkspaceAgent>> {
    return this.#agents;
  }

  /** Whether {@link Workspace.close} has run. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * The API key of a provider as a {@link Secret}: its configured `apiKey` reference, else a secret
   * named like the provider, else undefined (the provider then reads its own environment variables).
   */
  async providerKey(providerId: string): Promise<Secret | undefined> {
    const reference = this.#config.providers[providerId]?.apiKey;
    const secret =
      reference !== undefined
        ? await this.resolveKey(reference, `providers.${providerId}.apiKey`)
        : await this.secrets.get(providerId);
    if (secret !== undefined) {
      this.#knownSecrets.add(secret.reveal());
      this.#logger.info('provider key resolved', { provider: providerId, key: secret, from: secret.source });
    }
    return secret;
  }

  /** The {@link Secret} a key reference of the config points at (field names the config field, for errors). */
  resolveKey(reference: KeyReference, field?: string): Promise<Secret> {
    return resolveKeyReference(reference, {
      secrets: this.secrets,
      env: this.#env,
      file: this.#config.file,
      ...(field === undefined ? {} : { field }),
    });
  }

  /** Reads the config file again (after an outside edit); an invalid file throws and keeps the old config. */
  async reload(): Promise<ResolvedConfig> {
    return this.#adopt(await loadConfig(this.paths.config, this.#loadOptions()));
  }

  /**
   * Changes the config file through a draft (comments and formatting kept, validated before the atomic
   * write) and adopts the result. Updates of one workspace run one at a time.
   */
  updateConfig(recipe: Parameters<typeof updateConfig>[1]): Promise<ResolvedConfig> {
    return this.#serialized(() => updateConfig(this.paths.config, recipe, this.#loadOptions()));
  }

  /** Sets or (with `undefined`) removes one config field, e.g. `['agents', 'build', 'model']`. */
  setConfigValue(fieldPath: JSONPath, value: JsonValue | undefined): Promise<ResolvedConfig> {
    return this.#serialized(() => setConfigValue(this.paths.config, fieldPath, value, this.#loadOptions()));
  }

  /** The composed AGENTS.md (global, workspace, project), read now. */
  async agentsMd(): Promise<AgentsMd> {
    const composed = await composeAgentsMd({
      workspaceDir: this.paths.dir,
      root: this.paths.root,
      ...(this.#home === undefined ? {} : { home: this.#home }),
      ...(this.#agentsMdMaxBytes === undefined ? {} : { maxBytes: this.#agentsMdMaxBytes }),
    });
    for (const warning of composed.warnings) this.#logger.warn('AGENTS.md left out', { ...warning });
    return composed;
  }

  /** The built-in output styles and the workspace's `output-styles/*.md`, read now. */
  outputStyles(): Promise<OutputStyle[]> {
    return loadOutputStyles(this.paths.outputStyles, { within: this.paths.dir });
  }

  /** The style `outputStyle` of the config names. */
  async outputStyle(): Promise<OutputStyle> {
    const styles = await this.outputStyles();
    const style = styles.find((candidate) => candidate.name === this.#config.outputStyle);
    if (style !== undefined) return style;
    throw new ConfigError({
      reason: 'schema',
      file: this.#config.file,
      field: 'outputStyle',
      detail: scrubEnvValues(
        `no output style "${this.#config.outputStyle}" (was output-styles/${this.#config.outputStyle}.md removed?). Restore it or pick another style.`,
        envValuesOf(this.#config),
      ),
    });
  }

  /** Closes the store. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.store.close();
    this.#logger.info('workspace closed', { dir: this.paths.dir });
  }

  toJSON(): {
    dir: string;
    paths: WorkspacePaths;
    config: ResolvedConfig;
    agents: Readonly<Record<string, WorkspaceAgent>>;
  } {
    return { dir: this.paths.dir, paths: this.paths, config: this.#config, agents: this.#agents };
  }

  [inspect.custom](): string {
    return `Workspace(${this.paths.dir})`;
  }

  #loadOptions(): LoadConfigOptions {
    return { env: this.#env, baseDir: this.paths.dir, confineTo: this.paths.dir };
  }

  #adopt(config: ResolvedConfig): ResolvedConfig {
    this.#config = config;
    this.#agents = mergeAgents(config.agents);
    return config;
  }

  #serialized(change: () => Promise<ResolvedConfig>): Promise<ResolvedConfig> {
    const next = this.#updates.then(async () => {
      try {
        return this.#adopt(await change());
      } catch (error) {
        this.#logger.error('config update refused', { error });
        throw error;
      }
    });
    this.#updates = next.catch(() => undefined);
    return next;
  }
}
