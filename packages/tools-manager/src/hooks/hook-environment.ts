/** Variables of the host's environment a command hook inherits; everything else is left out. */
export const INHERITED_HOOK_VARIABLES = ['PATH', 'HOME', 'LANG'] as const;

/**
 * The environment of a command hook: only `PATH`, `HOME` and `LANG` from the host (so API keys and
 * other secrets in the host's environment never reach a hook), plus the hook's own `env`, which wins.
 */
export function hookEnvironment(
  extra: Record<string, string> | undefined,
  host: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of INHERITED_HOOK_VARIABLES) {
    const value = host[name];
    if (value !== undefined) environment[name] = value;
  }
  return { ...environment, ...extra };
}
