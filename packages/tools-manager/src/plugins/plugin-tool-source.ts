import { basename, extname } from 'node:path';
import type { AnyTool, ToolSource } from '@boxagnts/tools';
import { type LoadPluginOptions, loadPlugin } from './load-plugin.js';
import type { LoadedPlugin } from './plugin-types.js';
import { isPathSpecifier } from './resolve-plugin.js';

/** Options of {@link pluginToolSource}: how to load the plugin, and the source's name. */
export interface PluginToolSourceOptions extends Omit<LoadPluginOptions, 'signal'> {
  /**
   * The `<name>` of `plugin:<name>` when a specifier is given (the plugin's own name is only known
   * after loading); default: the package name, or the file or folder name of a path.
   */
  name?: string;
}

/** A tool source backed by a plugin; `plugin` is what the last `load()` produced (its skill folders, version). */
export interface PluginToolSource extends ToolSource {
  readonly kind: 'plugin';
  readonly plugin: LoadedPlugin | undefined;
}

/** The source name for a specifier before the plugin is loaded. */
function specifierName(specifier: string): string {
  if (!isPathSpecifier(specifier)) return specifier;
  const trimmed = specifier.replace(/[\\/]+$/, '');
  const stem = basename(trimmed, extname(trimmed));
  return stem === '' || stem === '.' || stem === '..' ? specifier : stem;
}

/**
 * A {@link ToolSource} (`plugin:<name>`, kind `plugin`) offering a plugin's tools. Given a loaded
 * plugin it offers that plugin's tools; given a specifier it loads the plugin on every `load()`
 * (Node imports the module once; setup runs again, so a refresh gets fresh tools), and a failed
 * load rejects with the {@link PluginLoadError}.
 *
 * @example
 * const tools = createToolSet({
 *   sources: [pluginToolSource('@acme/boxagnts-tools', { options: { region: 'eu' } })],
 * });
 */
export function pluginToolSource(
  plugin: string | LoadedPlugin,
  options: PluginToolSourceOptions = {},
): PluginToolSource {
  if (typeof plugin !== 'string') {
    return {
      name: `plugin:${options.name ?? plugin.name}`,
      kind: 'plugin',
      plugin,
      load: async (signal?: AbortSignal): Promise<readonly AnyTool[]> => {
        signal?.throwIfAborted();
        return plugin.tools;
      },
    };
  }
  const { name, ...loadOptions } = options;
  let loaded: LoadedPlugin | undefined;
  return {
    name: `plugin:${name ?? specifierName(plugin)}`,
    kind: 'plugin',
    get plugin() {
      return loaded;
    },
    async load(signal?: AbortSignal): Promise<readonly AnyTool[]> {
      loaded = await loadPlugin(plugin, { ...loadOptions, ...(signal === undefined ? {} : { signal }) });
      return loaded.tools;
    },
  };
}
