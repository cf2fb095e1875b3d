import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { redactSecrets } from '@boxagnts/api';
import type { ResolvedConfig } from '../config/config-defaults.js';
import { ConfigError } from '../config/config-error.js';
import { DEFAULT_CONFIG_TEXT } from '../config/default-config-text.js';
import { envValuesOf, scrubEnvValues } from '../config/env-values.js';
import { loadConfig } from '../config/load-config.js';
import { loadOutputStyles } from '../config/output-styles.js';
import { resolveKeyReference } from '../config/resolve-key-reference.js';
import { SecretStore } from '../config/secret-store.js';
import { BoxAgntsWorkspaceError, boxAgntsStateFiles } from '../import/boxagnts-workspace-error.js';
import { openStore } from '../store/open-store.js';
import type { StoreConfig, WorkspaceStore } from '../store/store-types.js';
import { Workspace } from './workspace.js';
import { maskingLogger, silentLogger, type WorkspaceLogger } from './workspace-logger.js';
import { type WorkspacePaths, workspacePaths } from './workspace-paths.js';

/** Options of {@link openWorkspace}. */
export interface OpenWorkspaceOptions {
  /** Create the folder, its subfolders, a commented config and AGENTS.md when missing; default true. */
  create?: boolean;
  /** The environment for `${env:NAME}` and `{ "env": NAME }`; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The user's home, for `~/.boxagnts/AGENTS.md`; default `os.homedir()`. */
  home?: string;
  /** Receives what the workspace does, with secrets masked; default silent. */
  logger?: WorkspaceLogger;
  /** Tighten a secrets file readable by others to 0600 instead of refusing to open; default false. */
  fixPermissions?: boolean;
  /** Cap of the composed AGENTS.md in bytes; default 32 KiB. */
  agentsMdMaxBytes?: number;
  /** Opens the store; default the package's `openStore` (SQLite or PostgreSQL, migrated). */
  openStore?: (config: StoreConfig) => Promise<WorkspaceStore>;
}

const AGENTS_MD_STARTER = `<!-- Instructions for every agent of this workspace. HTML comments like this one are left out. -->
`;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function createMissing(paths: WorkspacePaths): Promise<void> {
  await mkdir(paths.dir, { recursive: true });
  for (const folder of [paths.root, paths.skills, paths.tools, paths.sites]) await mkdir(folder, { recursive: true });
  await mkdir(paths.state, { recursive: true, mode: 0o700 });
  // 'wx' never replaces a file another process created meanwhile.
  for (const [file, text] of [
    [paths.config, DEFAULT_CONFIG_TEXT],
    [paths.agentsMd, AGENTS_MD_STARTER],
  ] as const) {
    await writeFile(file, text, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
}

async function storeConfigOf(config: ResolvedConfig, secrets: SecretStore, env: OpenWorkspaceOptions['env']) {
  if (config.store.kind === 'sqlite') {
    await mkdir(dirname(config.store.path), { recursive: true, mode: 0o700 });
    return { storeConfig: { kind: 'sqlite', path: config.store.path } satisfies StoreConfig, known: [] };
  }
  const url =
    typeof config.store.url === 'string'
      ? config.store.url
      : (
          await resolveKeyReference(config.store.url, {
            secrets,
            ...(env === undefined ? {} : { env }),
            file: config.file,
            field: 'store.url',
          })
        ).reveal();
  return { storeConfig: { kind: 'postgres', url } satisfies StoreConfig, known: [url] };
}

/**
 * Opens the workspace in `dir`: creates what is missing (`root/`, `skills/`, `tools/`, `sites/`,
 * `.boxagnts/`, a commented `boxagnts.json`, `AGENTS.md`), loads and validates the config, opens the
 * secrets file (mode 0600), checks the output style, opens and migrates the store, and returns a
 * {@link Workspace}. Any configuration mistake is a {@link ConfigError}; nothing falls back silently.
 * A folder holding a workspace of the Rust BoxAgnts (`.boxagnts/settings.json`, `sessions/`, ...) and
 * no `boxagnts.json` is refused with a {@link BoxAgntsWorkspaceError} that names the import
 * (`boxagnts import <dir>`, `importBoxAgntsWorkspace`), instead of creating a workspace beside it.
 *
 * @example
 * const workspace = await openWorkspace('./my-workspace');
 * const session = await workspace.store.sessions.create({ title: 'First' });
 * await workspace.close();
 */
export async function openWorkspace(dir: string, options: OpenWorkspaceOptions = {}): Promise<Workspace> {
  const paths = workspacePaths(dir);
  const env = options.env ?? process.env;
  const knownSecrets = new Set<string>();
  const logger = maskingLogger(options.logger ?? silentLogger, () => [...knownSecrets]);

  if (!(await exists(paths.config))) {
    // A workspace of the Rust BoxAgnts and no config of ours: import it rather than start an empty one beside it.
    const boxagnts = await boxAgntsStateFiles(paths.dir);
    if (boxagnts.length > 0) throw new BoxAgntsWorkspaceError(paths.dir, boxagnts);
  }
  if (options.create !== false) await createMissing(paths);
  else if (!(await exists(paths.config))) {
    throw new ConfigError({
      reason: 'io',
      file: paths.config,
      detail: 'no workspace here (the config file is missing).',
    });
  }

  const config = await loadConfig(paths.config, { env, baseDir: paths.dir, confineTo: paths.dir });
  const secrets = await SecretStore.open(paths.secrets, {
    create: options.create !== false,
    fixPermissions: options.fixPermissions ?? false,
  });
  const styles = await loadOutputStyles(paths.outputStyles, { within: paths.dir });
  if (!styles.some((style) => style.name === config.outputStyle)) {
    throw new ConfigError({
      reason: 'schema',
      file: config.file,
      field: 'outputStyle',
      detail: scrubEnvValues(
        `no output style "${config.outputStyle}". Use one of ${styles.map((style) => style.name).join(', ')}, or add output-styles/${config.outputStyle}.md.`,
        envValuesOf(config),
      ),
    });
  }

  const { storeConfig, known } = await storeConfigOf(config, secrets, options.env);
  let store: WorkspaceStore;
  try {
    store = await (options.openStore ?? openStore)(storeConfig);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ConfigError({
      reason: 'io',
      file: config.file,
      field: 'store',
      detail: `the ${storeConfig.kind} store could not be opened: ${redactSecrets(message, known)}`,
      // A PostgreSQL error may quote the URL with its password, so its cause is not kept.
      ...(storeConfig.kind === 'sqlite' ? { cause: error } : {}),
    });
  }

  const workspace = new Workspace({
    paths,
    config,
    secrets,
    store,
    logger,
    env,
    home: options.home,
    agentsMdMaxBytes: options.agentsMdMaxBytes,
    knownSecrets,
  });
  logger.info('workspace opened', {
    dir: paths.dir,
    store: storeConfig.kind,
    providers: Object.keys(config.providers),
    agents: Object.keys(workspace.agents),
  });
  return workspace;
}
