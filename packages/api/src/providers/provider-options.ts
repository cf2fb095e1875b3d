import type { Dispatcher } from 'undici';
import type { RetryOptions } from '../shared/retry-policy.js';
import type { StallOptions } from '../shared/stall-timeouts.js';

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * What a user may set on top of a provider row: key, base URL, region, parameters, headers, adapter
 * settings, and the transport controls every adapter takes. Omitted values come from the row and
 * the environment (keys when a request is made).
 */
export interface ProviderOptions {
  /** The API key; wins over the row's environment variables. */
  apiKey?: string;
  /** Another endpoint (a proxy, a mock server); `{parameter}` and `{model}` placeholders are filled. */
  baseURL?: string;
  /**
   * A key of the row's `regionalBaseURLs` (`china`, `international`), or, for rows with a `region`
   * parameter (Amazon Bedrock), that parameter's value (`eu-central-1`).
   */
  region?: string;
  /** Values of the row's parameters (`{resource: 'my-azure-resource'}`, `{project, location}`). */
  parameters?: Readonly<Record<string, string>>;
  /** Extra headers on every request, merged over the row's. */
  headers?: Readonly<Record<string, string>>;
  /** Adapter settings merged over the row's and its model overrides' (`compat`, `betas`, `keepAlive`, ...). */
  settings?: Readonly<Record<string, unknown>>;
  /** The undici dispatcher (connection pool). */
  dispatcher?: Dispatcher;
  /** Retry policy before the first delta reaches the caller. */
  retry?: RetryOptions;
  /** Stall timers, or `false`. */
  stall?: StallOptions | false;
  /** The environment to read keys and parameters from; default `process.env`, read when a request is made. */
  env?: Environment;
}
