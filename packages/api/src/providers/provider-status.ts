import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ProviderEntry } from './provider-entry.js';
import { findParameter, missingParameters } from './provider-parameters.js';

/**
 * One provider as `registry.list()` reports it: whether it can be used now and where its credential
 * would come from. It never holds a key, only the names of the variables that do.
 */
export interface ProviderStatus {
  id: string;
  name: string;
  adapter: string;
  /** A credential is present (or none is needed), and so is every required parameter and base URL. */
  configured: boolean;
  /**
   * Where the credential comes from: an explicit `option`, the `environment`, a token `file` (the
   * row's `credentialFiles`, e.g. BoxAgnts' login), or `not-needed` (a local server, or an optional
   * key that is absent); `undefined` when none was found.
   */
  credentialSource: 'option' | 'environment' | 'file' | 'not-needed' | undefined;
  /** The environment variables found holding it (two for an AWS access key pair), when from the environment. */
  credentialVariables: readonly string[];
  /** Every variable checked for a key, in order. */
  apiKeyEnvVars: readonly string[];
  /** What is missing, in words a user can act on (`an API key: ANTHROPIC_API_KEY`, `parameter resource`, `baseURL`). */
  missing: readonly string[];
  docsURL: string;
  defaultModel: string | undefined;
  modelsDevId: string | undefined;
  /** Other ids that reach this row (`together-ai`, `togetherai` for `together`); absent when none. */
  aliases?: readonly string[];
}

/** The explicit options that bear on the configured state. */
export interface ProviderStatusOptions {
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  parameters?: Readonly<Record<string, string>> | undefined;
  /** Adapter settings; `credentials` (Bedrock SigV4) or `vertex.accessToken` count as a credential. */
  settings?: Readonly<Record<string, unknown>> | undefined;
}

type Environment = Readonly<Record<string, string | undefined>>;

/** The {@link ProviderStatus} of a row with the given options and environment. */
export function providerStatus(entry: ProviderEntry, options: ProviderStatusOptions, env: Environment): ProviderStatus {
  const credential = findCredential(entry, options, env);
  const missing: string[] = [];
  if (credential.source === undefined) {
    const variables = [entry.apiKeyEnvVars.join(', '), ...(entry.alternativeCredentialEnvVars ?? []).map(joinPair)]
      .filter((text) => text !== '')
      .join(' or ');
    const files = (entry.credentialFiles ?? []).join(' or ');
    missing.push(
      `an API key${variables === '' ? '' : `: ${variables}`}${files === '' ? '' : `${variables === '' ? ': ' : ' or '}a token file ${files}`}`,
    );
  }
  for (const name of missingParameters(entry, options.parameters, env)) missing.push(`parameter ${name}`);
  if (entry.requiresBaseURL === true && isBlank(options.baseURL) && isBlank(entry.baseURL)) missing.push('baseURL');
  return {
    id: entry.id,
    name: entry.name,
    adapter: entry.adapter,
    configured: missing.length === 0,
    credentialSource: credential.source,
    credentialVariables: credential.variables,
    apiKeyEnvVars: [...entry.apiKeyEnvVars],
    missing,
    docsURL: entry.docsURL,
    defaultModel: entry.defaultModel,
    modelsDevId: entry.modelsDevId,
  };
}

function findCredential(
  entry: ProviderEntry,
  options: ProviderStatusOptions,
  env: Environment,
): { source: ProviderStatus['credentialSource']; variables: string[] } {
  if (entry.authStyle === 'none') return { source: 'not-needed', variables: [] };
  if (!isBlank(options.apiKey) || hasExplicitCredential(options.settings)) return { source: 'option', variables: [] };
  const variable = entry.apiKeyEnvVars.find((name) => !isBlank(env[name]));
  if (variable !== undefined) return { source: 'environment', variables: [variable] };
  for (const group of entry.alternativeCredentialEnvVars ?? []) {
    if (group.length > 0 && group.every((name) => !isBlank(env[name]))) {
      return { source: 'environment', variables: [...group] };
    }
  }
  for (const template of entry.credentialFiles ?? []) {
    const path = template.replace(
      /\{([a-zA-Z0-9_]+)\}/g,
      (_, name: string) => findParameter(entry, name, options.parameters, env) ?? '',
    );
    if (existsSync(resolve(process.cwd(), path))) return { source: 'file', variables: [] };
  }
  if (entry.apiKeyOptional === true) return { source: 'not-needed', variables: [] };
  return { source: undefined, variables: [] };
}

function hasExplicitCredential(settings: Readonly<Record<string, unknown>> | undefined): boolean {
  if (settings === undefined) return false;
  if (!isBlank(settings.apiKey) || settings.credentials !== undefined) return true;
  const vertex = settings.vertex;
  return (
    typeof vertex === 'object' && vertex !== null && (vertex as { accessToken?: unknown }).accessToken !== undefined
  );
}

function joinPair(group: readonly string[]): string {
  return group.join(' + ');
}

function isBlank(value: unknown): boolean {
  return typeof value !== 'string' || value.trim() === '';
}
