import type { Dispatcher } from 'undici';
import type { RetryOptions } from './retry-policy.js';
import type { StallOptions } from './stall-timeouts.js';

/**
 * Settings every protocol adapter accepts. A provider entry (issue: providers are data) fills them
 * from its row: id, base URL, key variables, headers; users override any of them.
 */
export interface AdapterSettings {
  /** Provider id in errors, metadata and logs (e.g. `deepseek` for an OpenAI-compatible server). */
  providerId?: string;
  /** Display name. */
  providerName?: string;
  /** The API base URL, e.g. `https://api.anthropic.com` or a mock server's URL. */
  baseURL?: string;
  /**
   * The API key. When omitted it is read from `apiKeyEnvVars` when a request is made (never at
   * creation), so creating a provider at import time is safe.
   */
  apiKey?: string;
  /** Environment variables that may hold the key, checked in order. */
  apiKeyEnvVars?: readonly string[];
  /** No key at all (local servers such as Ollama, LM Studio, vLLM). */
  noApiKey?: boolean;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** The undici dispatcher (connection pool); default the shared agent. */
  dispatcher?: Dispatcher;
  /** Retry policy before the first delta reaches the caller. */
  retry?: RetryOptions;
  /** First-byte, between-events and keep-alive-only stall timers, or `false` to turn them off. */
  stall?: StallOptions | false;
  /** The environment to read keys from; default `process.env` (inject in tests). */
  env?: Readonly<Record<string, string | undefined>>;
}
