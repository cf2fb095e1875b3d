import { ProviderConfigurationError } from './provider-configuration-error.js';
import type { ProviderEntryBase } from './provider-entry.js';

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The value of one of a row's parameters: the explicit option, else the first non-blank listed
 * environment variable, else the parameter's default; `undefined` when there is none.
 */
export function findParameter(
  entry: Pick<ProviderEntryBase, 'parameters'>,
  name: string,
  explicit: Readonly<Record<string, string>> | undefined,
  env: Environment,
): string | undefined {
  const given = explicit?.[name]?.trim();
  if (given !== undefined && given !== '') return given;
  const parameter = entry.parameters?.[name];
  if (parameter === undefined) return undefined;
  for (const variable of parameter.envVars) {
    const value = env[variable]?.trim();
    if (value !== undefined && value !== '') return value;
  }
  return parameter.default;
}

/** Names of the row's parameters that have no value (the configured state lists them). */
export function missingParameters(
  entry: Pick<ProviderEntryBase, 'parameters'>,
  explicit: Readonly<Record<string, string>> | undefined,
  env: Environment,
): string[] {
  return Object.keys(entry.parameters ?? {}).filter((name) => findParameter(entry, name, explicit, env) === undefined);
}

/**
 * Every parameter of the row resolved (see {@link findParameter}). Throws a
 * {@link ProviderConfigurationError} for a parameter without a value, naming the option and the
 * variables checked, and for an explicit parameter the row does not have.
 */
export function resolveParameters(
  entry: Pick<ProviderEntryBase, 'id' | 'parameters'>,
  explicit: Readonly<Record<string, string>> | undefined,
  env: Environment,
): Record<string, string> {
  const known = entry.parameters ?? {};
  for (const name of Object.keys(explicit ?? {})) {
    if (!(name in known)) {
      const names = Object.keys(known);
      throw new ProviderConfigurationError({
        providerId: entry.id,
        message: `Provider "${entry.id}" has no parameter "${name}"; ${names.length === 0 ? 'it takes none' : `it takes ${names.join(', ')}`}.`,
      });
    }
  }
  const values: Record<string, string> = {};
  for (const [name, parameter] of Object.entries(known)) {
    const value = findParameter(entry, name, explicit, env);
    if (value === undefined) {
      const variables =
        parameter.envVars.length === 0
          ? ''
          : ` or set ${parameter.envVars.length === 1 ? 'the environment variable' : 'one of the environment variables'} ${parameter.envVars.join(', ')}`;
      throw new ProviderConfigurationError({
        providerId: entry.id,
        message: `Provider "${entry.id}" needs its ${name} (${parameter.description}): pass \`parameters: { ${name}: '…' }\`${variables}.`,
      });
    }
    values[name] = value;
  }
  return values;
}

/**
 * Replaces each `{name}` of a base URL template with its URI-encoded value. An unknown placeholder is
 * a {@link ProviderConfigurationError} (a typo in a row or a missing parameter declaration).
 *
 * @example
 * fillBaseURL('https://{resource}.openai.azure.com/openai/deployments/{model}', { resource: 'r', model: 'gpt-4o' }, 'azure-openai');
 * // 'https://r.openai.azure.com/openai/deployments/gpt-4o'
 */
export function fillBaseURL(template: string, values: Readonly<Record<string, string>>, providerId: string): string {
  return template.replace(/\{([A-Za-z][\w-]*)\}/g, (_placeholder, name: string) => {
    const value = values[name];
    if (value === undefined) {
      throw new ProviderConfigurationError({
        providerId,
        message: `The base URL of provider "${providerId}" has a placeholder {${name}} that no parameter fills: pass a complete \`baseURL\`.`,
      });
    }
    return encodeURIComponent(value);
  });
}
