/**
 * The host environment variables a user grants to third-party component tools, in configuration:
 * a list grants those names to every tool loaded with it; a record grants each tool (by name) its
 * own list. A tool receives a granted variable only when its own descriptor (or manifest) also
 * lists it; what a component names for itself, without a grant, it never receives.
 */
export type EnvGrant = readonly string[] | Readonly<Record<string, readonly string[]>>;

/** The names granted to `toolName` under `grant` (none without a grant). */
export function grantedNames(grant: EnvGrant | undefined, toolName: string): readonly string[] {
  if (grant === undefined) return [];
  if (Array.isArray(grant)) return grant as readonly string[];
  const own = (grant as Readonly<Record<string, readonly string[]>>)[toolName];
  return Object.hasOwn(grant, toolName) && Array.isArray(own) ? own : [];
}

/**
 * The environment a tool's guest gets: each variable it asked for (`requested`) that the user
 * granted and the host has set, and nothing else.
 */
export function grantedEnvironment(
  requested: readonly string[],
  grant: EnvGrant | undefined,
  toolName: string,
  source: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const granted = new Set(grantedNames(grant, toolName));
  const env: Record<string, string> = {};
  for (const name of requested) {
    if (!granted.has(name)) continue;
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}
