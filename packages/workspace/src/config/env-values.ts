import type { ConfigError } from './config-error.js';

/** One `${env:NAME}` reference and the value it was replaced with. */
export interface EnvSubstitution {
  name: string;
  value: string;
}

// Values shorter than this are left in messages: replacing "1" or "on" everywhere would garble them.
const MIN_SCRUBBED_LENGTH = 3;

const substitutionsOf = new WeakMap<object, readonly EnvSubstitution[]>();

/** Remembers which environment values went into a resolved config, for {@link scrubEnvValues}. */
export function rememberEnvValues(config: object, substitutions: readonly EnvSubstitution[]): void {
  if (substitutions.length > 0) substitutionsOf.set(config, substitutions);
}

/** The substitutions of a resolved config (none when it was not built from `${env:...}` references). */
export function envValuesOf(config: object): readonly EnvSubstitution[] {
  return substitutionsOf.get(config) ?? [];
}

/**
 * Text with every substituted environment value written back as its reference (`${env:NAME}`), so a
 * message quoting a field shows where the value came from and never the value itself (it may be a
 * secret that only the environment should hold). Longest values first, so one inside another stays hidden.
 */
export function scrubEnvValues(text: string, substitutions: readonly EnvSubstitution[]): string {
  let scrubbed = text;
  const sorted = [...substitutions].sort((a, b) => b.value.length - a.value.length);
  for (const { name, value } of sorted) {
    if (value.length < MIN_SCRUBBED_LENGTH) continue;
    scrubbed = scrubbed.split(value).join(`\${env:${name}}`);
  }
  return scrubbed;
}

/** The same error with its message scrubbed of substituted values ({@link scrubEnvValues}). */
export function scrubConfigError(error: ConfigError, substitutions: readonly EnvSubstitution[]): ConfigError {
  const message = scrubEnvValues(error.message, substitutions);
  if (message !== error.message) error.message = message;
  return error;
}
