import { PluginLoadError } from './plugin-load-error.js';
import type { PluginApi } from './plugin-types.js';

/** A plugin module's export, normalised: a name, maybe a version, and the setup to run. */
export interface PluginEntryPoint {
  name: string;
  version?: string;
  setup: (api: PluginApi) => unknown;
}

function asEntryPoint(value: unknown, defaultName: string, specifier: string): PluginEntryPoint | undefined {
  if (typeof value === 'function') return { name: defaultName, setup: value as PluginEntryPoint['setup'] };
  if (typeof value !== 'object' || value === null) return undefined;
  const candidate = value as { name?: unknown; version?: unknown; setup?: unknown };
  if (typeof candidate.setup !== 'function') return undefined;
  if (typeof candidate.name !== 'string' || candidate.name.trim() === '') {
    throw new PluginLoadError({
      reason: 'bad-export',
      specifier,
      message: `Plugin "${specifier}" exports { setup } without a name; add name: "${defaultName}" (a non-empty string) next to setup.`,
    });
  }
  if (candidate.version !== undefined && typeof candidate.version !== 'string') {
    throw new PluginLoadError({
      reason: 'bad-export',
      specifier,
      pluginName: candidate.name,
      message: `Plugin "${candidate.name}" has a ${typeof candidate.version} version; make version a string ("1.0.0") or leave it out.`,
    });
  }
  const setup = candidate.setup as PluginEntryPoint['setup'];
  return {
    name: candidate.name,
    ...(candidate.version === undefined ? {} : { version: candidate.version }),
    // Called as a method so a plugin object's `this` is itself.
    setup: (api) => setup.call(value, api),
  };
}

/**
 * Finds the plugin in an imported module: the default export, else the `plugin` export, each either
 * a setup function or `{ name, setup }`; a CommonJS module's `module.exports = { default }` is
 * unwrapped once. Throws a `bad-export` {@link PluginLoadError} listing what the module exports.
 */
export function pickPluginExport(
  namespace: Record<string, unknown>,
  defaultName: string,
  specifier: string,
): PluginEntryPoint {
  const candidates = [namespace.default, namespace.plugin];
  const nested = namespace.default as { default?: unknown; plugin?: unknown } | undefined;
  if (typeof nested === 'object' && nested !== null) candidates.push(nested.default, nested.plugin);
  for (const candidate of candidates) {
    const entry = asEntryPoint(candidate, defaultName, specifier);
    if (entry !== undefined) return entry;
  }
  const names = Object.keys(namespace);
  throw new PluginLoadError({
    reason: 'bad-export',
    specifier,
    message: `Plugin "${specifier}" must export a default function (api) => void or { name, setup }; it exports: ${names.length > 0 ? names.join(', ') : 'nothing'}.`,
  });
}
