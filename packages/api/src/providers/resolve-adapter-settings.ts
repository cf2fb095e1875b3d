import { mergeSettings } from './merge-settings.js';
import { ProviderConfigurationError } from './provider-configuration-error.js';
import type { ModelOverride, ProviderEntry } from './provider-entry.js';
import type { ProviderOptions } from './provider-options.js';
import { fillBaseURL, resolveParameters } from './provider-parameters.js';

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The settings a row's adapter receives for one model: the row's identity, key variables and
 * headers, its `settings`, what its `configure` hook computes from the resolved parameters, the
 * matching model overrides in order, then the user's options, with the base URL template filled
 * (`{parameter}`, `{model}`) and `noApiKey` set for keyless servers and absent optional keys.
 * Throws a {@link ProviderConfigurationError} for a missing parameter or base URL.
 */
export function resolveAdapterSettings(
  entry: ProviderEntry,
  options: ProviderOptions,
  model: string,
  matched: readonly ModelOverride<unknown>[],
  env: Environment,
): Record<string, unknown> {
  const parameters = resolveParameters(entry, parameterOptions(entry, options), env);
  const template = baseURLTemplate(entry, options);
  const baseURL = template === undefined ? undefined : fillBaseURL(template, { ...parameters, model }, entry.id);
  if (baseURL === undefined && entry.requiresBaseURL === true) {
    throw new ProviderConfigurationError({
      providerId: entry.id,
      message: `Provider "${entry.id}" has no default address: pass \`baseURL\` (e.g. "http://127.0.0.1:8000/v1").`,
    });
  }
  return mergeSettings(
    { providerId: entry.id, providerName: entry.name, apiKeyEnvVars: entry.apiKeyEnvVars, headers: entry.headers },
    entry.settings as Readonly<Record<string, unknown>> | undefined,
    entry.configure?.({ parameters, model }) as Readonly<Record<string, unknown>> | undefined,
    ...matched.map((override) => override.settings as Readonly<Record<string, unknown>> | undefined),
    options.settings,
    {
      baseURL,
      apiKey: options.apiKey,
      headers: options.headers,
      dispatcher: options.dispatcher,
      retry: options.retry,
      stall: options.stall,
      env: options.env,
      noApiKey: needsNoKey(entry, options, env) ? true : undefined,
    },
  );
}

/** The base URL template: the explicit one, else the asked region's, else the row's. */
export function baseURLTemplate(entry: ProviderEntry, options: ProviderOptions): string | undefined {
  const explicit = options.baseURL?.trim();
  if (explicit !== undefined && explicit !== '') return explicit;
  if (options.region !== undefined) {
    const regional = entry.regionalBaseURLs?.[options.region];
    if (regional !== undefined) return regional;
    if (entry.parameters?.region === undefined) {
      const regions = Object.keys(entry.regionalBaseURLs ?? {});
      throw new ProviderConfigurationError({
        providerId: entry.id,
        message:
          regions.length === 0
            ? `Provider "${entry.id}" has no regional endpoints: leave out \`region\` or pass \`baseURL\`.`
            : `Provider "${entry.id}" has no region "${options.region}"; it has ${regions.join(', ')}.`,
      });
    }
  }
  return entry.baseURL;
}

/** The explicit parameters, with `region` among them for rows that take it as a parameter; unknown names refused now. */
export function parameterOptions(entry: ProviderEntry, options: ProviderOptions): Readonly<Record<string, string>> {
  const known = entry.parameters ?? {};
  const values: Record<string, string> = { ...options.parameters };
  const region = options.region;
  if (region !== undefined && entry.regionalBaseURLs?.[region] === undefined && known.region !== undefined) {
    values.region = region;
  }
  for (const name of Object.keys(values)) {
    if (!(name in known)) {
      const names = Object.keys(known);
      throw new ProviderConfigurationError({
        providerId: entry.id,
        message: `Provider "${entry.id}" has no parameter "${name}"; ${names.length === 0 ? 'it takes none' : `it takes ${names.join(', ')}`}.`,
      });
    }
  }
  return values;
}

/** No key is sent: a keyless server, or an optional key that is nowhere to be found. */
function needsNoKey(entry: ProviderEntry, options: ProviderOptions, env: Environment): boolean {
  if (entry.authStyle === 'none') return true;
  if (entry.apiKeyOptional !== true) return false;
  if (options.apiKey !== undefined && options.apiKey.trim() !== '') return false;
  if (typeof options.settings?.apiKey === 'string' && options.settings.apiKey.trim() !== '') return false;
  const variables = (options.settings?.apiKeyEnvVars as readonly string[] | undefined) ?? entry.apiKeyEnvVars;
  return !variables.some((name) => (env[name]?.trim() ?? '') !== '');
}
