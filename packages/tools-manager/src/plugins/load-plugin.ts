import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ToolLogger } from '@boxagnts/tools';
import { importConditions } from './import-conditions.js';
import { pickPluginExport } from './pick-plugin-export.js';
import { isPluginLoadError, PluginLoadError } from './plugin-load-error.js';
import { createPluginRegistrar } from './plugin-registrar.js';
import type { LoadedPlugin } from './plugin-types.js';
import { resolvePlugin } from './resolve-plugin.js';

/** Options of {@link loadPlugin}. */
export interface LoadPluginOptions {
  /** The folder package names and relative paths are resolved from (a path or `file:` URL); default `process.cwd()`. */
  from?: string;
  /** Handed to the plugin as `api.options`. */
  options?: Record<string, unknown>;
  /** Receives the plugin's log lines (tagged with `{ plugin }`); default: dropped. */
  logger?: ToolLogger;
  /** Extra `exports` conditions, besides Node's own (`import`, `node`, `default`) and `--conditions` flags. */
  conditions?: readonly string[];
  /** Stops waiting for a setup that has not finished: the load then rejects with the signal's reason. */
  signal?: AbortSignal;
}

function causeText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  signal.throwIfAborted();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Loads a tool plugin: resolves the specifier (an npm package name, found from `from` the way Node
 * would import it, or a local file or folder), imports it, runs its setup with a {@link PluginApi}
 * and returns what it registered. Every failure is a {@link PluginLoadError} whose message says
 * what to change.
 *
 * @example
 * const plugin = await loadPlugin('@acme/boxagnts-tools', { options: { maxInputLength: 10_000 } });
 * const tools = createToolSet({ sources: [pluginToolSource(plugin)] });
 */
export async function loadPlugin(specifier: string, options: LoadPluginOptions = {}): Promise<LoadedPlugin> {
  options.signal?.throwIfAborted();
  const from = options.from?.startsWith('file:') ? fileURLToPath(options.from) : resolve(options.from ?? process.cwd());
  const resolved = await resolvePlugin(specifier, from, importConditions(options.conditions));
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(/* @vite-ignore */ pathToFileURL(resolved.entry).href)) as Record<string, unknown>;
  } catch (error) {
    throw new PluginLoadError({
      reason: 'setup-failed',
      specifier,
      path: resolved.entry,
      message: `Plugin "${specifier}" could not be imported from ${resolved.entry}: ${causeText(error)}; fix the module (or install its missing dependencies).`,
      cause: error,
    });
  }
  const entryPoint = pickPluginExport(namespace, resolved.defaultName, specifier);
  const registrar = createPluginRegistrar({
    specifier,
    pluginName: entryPoint.name,
    pluginRoot: resolved.root,
    options: options.options ?? {},
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  try {
    await untilAborted(
      Promise.resolve().then(() => entryPoint.setup(registrar.api)),
      options.signal,
    );
  } catch (error) {
    try {
      registrar.finish();
    } catch {
      // The setup's own failure is the one to report.
    }
    if (isPluginLoadError(error) || (options.signal?.aborted === true && error === options.signal.reason)) throw error;
    throw new PluginLoadError({
      reason: 'setup-failed',
      specifier,
      pluginName: entryPoint.name,
      path: resolved.entry,
      message: `Plugin "${entryPoint.name}" failed in setup: ${causeText(error)}; fix the plugin or the options passed to it.`,
      cause: error,
    });
  }
  const { tools, skillFolders } = registrar.finish();
  const version = entryPoint.version ?? resolved.version;
  return Object.freeze({
    name: entryPoint.name,
    ...(version === undefined ? {} : { version }),
    root: resolved.root,
    tools: Object.freeze(tools),
    skillFolders: Object.freeze(skillFolders),
  });
}
