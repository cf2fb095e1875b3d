import { ConfigError } from './config-error.js';
import type { KeyReference } from './key-reference.js';
import { Secret } from './secret.js';
import type { SecretStore } from './secret-store.js';

/** Where {@link resolveKeyReference} looks. */
export interface KeySources {
  secrets: SecretStore;
  /** Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The config file and field, for the error message. */
  file?: string;
  field?: string;
}

/**
 * The {@link Secret} a key reference points at: `{ env }` reads the environment, `{ secret }` the
 * secrets file. An unset variable or a missing secret is a {@link ConfigError} naming it.
 *
 * @example
 * const key = await resolveKeyReference({ secret: 'anthropic' }, { secrets });
 */
export async function resolveKeyReference(reference: KeyReference, sources: KeySources): Promise<Secret> {
  if ('secret' in reference) return sources.secrets.require(reference.secret, sources.field);
  const value = (sources.env ?? process.env)[reference.env]?.trim();
  if (value === undefined || value === '') {
    throw new ConfigError({
      reason: 'missing-env',
      file: sources.file ?? sources.secrets.file,
      ...(sources.field === undefined ? {} : { field: sources.field }),
      detail: `environment variable ${reference.env} is not set. Set it, or reference a secret with { "secret": "<name>" }.`,
    });
  }
  return new Secret(value, `env:${reference.env}`);
}
