import path from 'node:path';
import { realRoot, resolveRealPath } from '../permissions/real-path.js';

/** Variables of the host's environment a command hook inherits; everything else is left out. */
export const INHERITED_HOOK_VARIABLES = ['PATH', 'HOME', 'LANG'] as const;

/**
 * The environment of a command hook: only `PATH`, `HOME` and `LANG` from the host (so API keys and
 * other secrets in the host's environment never reach a hook), plus the hook's own `env`, which wins.
 * The inherited `PATH` loses relative entries (`.`, empty ones) and entries inside `roots`, so a
 * program name never resolves to a file the agents could have written.
 */
export function hookEnvironment(
  extra: Record<string, string> | undefined,
  host: NodeJS.ProcessEnv = process.env,
  roots: readonly string[] = [],
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of INHERITED_HOOK_VARIABLES) {
    const value = host[name];
    if (value !== undefined) environment[name] = name === 'PATH' ? safeSearchPath(value, roots) : value;
  }
  return { ...environment, ...extra };
}

function safeSearchPath(value: string, roots: readonly string[]): string {
  const resolvedRoots = roots.filter((root) => root !== '').map((root) => realRoot(path.resolve(root)));
  return value
    .split(':')
    .filter((entry) => {
      if (!path.isAbsolute(entry)) return false;
      const real = resolveRealPath(entry) ?? entry;
      return !resolvedRoots.some((root) => {
        const relative = path.relative(root, real);
        return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
      });
    })
    .join(':');
}
