import type { AnyTool, ToolLogger } from '@boxagnts/tools';

/**
 * What a plugin's setup gets from the host: ways to register tools and skill folders, the options
 * the host chose for this plugin, a logger, and where the plugin lives. Registration is only
 * possible while setup runs (await any async work inside setup).
 */
export interface PluginApi {
  /** The plugin's name (from `{ name }`, else its package.json, else its file or folder name). */
  readonly pluginName: string;
  /** The plugin's folder: the package root, the folder given, or the folder of the file given. */
  readonly pluginRoot: string;
  /** Options the host passed for this plugin; unknown data, so check it before use. */
  readonly options: Readonly<Record<string, unknown>>;
  /** The host's logger; every line carries `{ plugin: pluginName }`. */
  readonly logger: ToolLogger;
  /** Adds one tool; an invalid or duplicate tool fails the load with a {@link PluginLoadError}. */
  registerTool(tool: AnyTool): void;
  /** Adds several tools, in order. */
  registerTools(tools: readonly AnyTool[]): void;
  /** Adds a folder of skills (sub-folders with a `SKILL.md`); a relative path is taken from `pluginRoot`. */
  registerSkillFolder(path: string): void;
}

/** A plugin as a bare function: the module's default export (or its `plugin` export). */
export type PluginSetup = (api: PluginApi) => void | Promise<void>;

/** A plugin as an object with a name, an optional version and a setup function. */
export interface ToolPlugin {
  /** Shown in listings and errors, and names the tool source (`plugin:<name>`). */
  readonly name: string;
  readonly version?: string;
  setup(api: PluginApi): void | Promise<void>;
}

/** A plugin after its setup ran: what it registered and where it came from. */
export interface LoadedPlugin {
  readonly name: string;
  readonly version?: string;
  /** The plugin's folder (absolute, symlinks resolved). */
  readonly root: string;
  /** The tools it registered, in registration order. */
  readonly tools: readonly AnyTool[];
  /** The skill folders it registered, absolute. */
  readonly skillFolders: readonly string[];
}

/**
 * Declares a plugin with its types checked; returns it unchanged. Export the result as the module's
 * default export.
 *
 * @example
 * export default definePlugin({
 *   name: 'acme-tools',
 *   setup(api) {
 *     api.registerTool(echoTool);
 *   },
 * });
 */
export function definePlugin<Plugin extends ToolPlugin | PluginSetup>(plugin: Plugin): Plugin {
  return plugin;
}
