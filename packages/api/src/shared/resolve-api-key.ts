import { MissingApiKeyError } from '../spec/llm-error-classes.js';
import { rememberSecret } from './secret-registry.js';

/** Options of {@link resolveApiKey}. */
export interface ResolveApiKeyOptions {
  providerId: string;
  /** The key passed explicitly; wins over the environment. */
  apiKey?: string | undefined;
  /** Environment variables that may hold the key, checked in order (aliases such as `GOOGLE_API_KEY`, `GEMINI_API_KEY`). */
  envVarNames: readonly string[];
  /** The environment to read; `process.env` by default. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The option name the error message tells the user to pass. Default `apiKey`. */
  optionName?: string;
}

/**
 * Returns the API key to use: the explicit one, else the first non-blank listed environment variable.
 * Call it when a request is made, not when the provider is created, so creating a provider at import
 * time is safe. Throws a {@link MissingApiKeyError} naming every variable it checked.
 *
 * @example
 * const key = resolveApiKey({ providerId: 'anthropic', apiKey: settings.apiKey, envVarNames: ['ANTHROPIC_API_KEY'] });
 */
export function resolveApiKey(options: ResolveApiKeyOptions): string {
  const explicit = options.apiKey?.trim();
  if (explicit !== undefined && explicit !== '') {
    rememberSecret(explicit);
    return explicit;
  }
  const env = options.env ?? process.env;
  for (const name of options.envVarNames) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== '') {
      rememberSecret(value);
      return value;
    }
  }
  throw new MissingApiKeyError({
    providerId: options.providerId,
    envVarNames: options.envVarNames,
    ...(options.optionName === undefined ? {} : { optionName: options.optionName }),
  });
}
