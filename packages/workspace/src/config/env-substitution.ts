import { ConfigError } from './config-error.js';
import type { EnvSubstitution } from './env-values.js';
import { ENV_NAME_PATTERN } from './key-reference.js';

const REFERENCE = /\$?\$\{env:([^}]*)\}/g;

/** Formats a path of keys and indexes as `agents.build.model` / `hooks.beforeTool[0].command`. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text === '' ? String(part) : `.${String(part)}`;
  }
  return text;
}

/**
 * Replaces `${env:NAME}` in every string of a parsed config with the variable's value. A variable that
 * is unset (or empty) is a {@link ConfigError} naming it and the field; there is no silent default.
 * Object keys are not substituted. `$${env:NAME}` writes the text `${env:NAME}` unchanged. Each
 * substitution is added to `found`, so error messages can hide the values.
 */
export function substituteEnv(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
  file: string,
  path: readonly (string | number)[] = [],
  found: EnvSubstitution[] = [],
): unknown {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (match: string, name: string) => {
      if (match.startsWith('$$')) return match.slice(1);
      if (!ENV_NAME_PATTERN.test(name)) {
        throw new ConfigError({
          reason: 'schema',
          file,
          field: formatFieldPath(path),
          detail: `"\${env:${name}}" is not a valid variable reference: use letters, digits and "_".`,
        });
      }
      const resolved = env[name];
      if (resolved === undefined || resolved === '') {
        throw new ConfigError({
          reason: 'missing-env',
          file,
          field: formatFieldPath(path),
          detail: `environment variable ${name} is not set. Set it, or change this field to not use \${env:${name}}.`,
        });
      }
      found.push({ name, value: resolved });
      return resolved;
    });
  }
  if (Array.isArray(value)) return value.map((item, index) => substituteEnv(item, env, file, [...path, index], found));
  if (typeof value === 'object' && value !== null) {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      result[key] = substituteEnv(item, env, file, [...path, key], found);
    return result;
  }
  return value;
}
