import type { FetchFunction } from '../shared/provider-fetch.js';
import { redactUrl } from '../shared/redact-secrets.js';
import { type BuildCatalogueOptions, buildCatalogue, MODELS_DEV_API_URL } from './build-catalogue.js';
import type { Catalogue } from './catalogue-types.js';

/** Options of {@link fetchModelsDevCatalogue}. */
export interface FetchModelsDevOptions {
  /** Default {@link MODELS_DEV_API_URL}. */
  url?: string;
  /** Default the global `fetch`; inject one in tests or to go through a proxy. */
  fetch?: FetchFunction;
  signal?: AbortSignal;
  /** Whole request deadline; default 30 s. */
  timeoutMs?: number;
  /** Largest body accepted; default 32 MiB (models.dev's api.json was ~1.9 MB in May 2026). */
  maxBytes?: number;
  /** How the catalogue is built from the fetched JSON (providers to keep, warnings). */
  build?: BuildCatalogueOptions;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

async function readBounded(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`the body is ${declared} bytes, over the ${maxBytes}-byte limit`);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`the body is over the ${maxBytes}-byte limit`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Downloads models.dev's `api.json` and returns it parsed (not yet validated: {@link buildCatalogue}
 * validates each model). Rejects with a message naming the URL on a network error, a non-2xx status,
 * a body over `maxBytes`, a timeout or invalid JSON.
 */
export async function fetchModelsDevJson(options: FetchModelsDevOptions = {}): Promise<unknown> {
  const url = options.url ?? MODELS_DEV_API_URL;
  const fetchFunction = options.fetch ?? globalThis.fetch;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let text: string;
  try {
    const response = await fetchFunction(url, { headers: { accept: 'application/json' }, signal });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
    }
    text = await readBounded(response, options.maxBytes ?? DEFAULT_MAX_BYTES);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Could not download the model catalogue from ${redactUrl(url)}: ${reason}`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`The model catalogue from ${redactUrl(url)} is not valid JSON.`, { cause: error });
  }
}

/**
 * Fetches the live models.dev catalogue and builds the project's format from it, for a user who is
 * online and wants prices newer than the shipped ones. Pass the result to `setActiveCatalogue` to use
 * it, and `serializeCatalogue` to keep it on disk. Offline, it rejects; the shipped catalogue stays.
 *
 * @example
 * try {
 *   setActiveCatalogue(await fetchModelsDevCatalogue({ timeoutMs: 10_000 }));
 * } catch {
 *   // offline: keep the shipped catalogue
 * }
 */
export async function fetchModelsDevCatalogue(options: FetchModelsDevOptions = {}): Promise<Catalogue> {
  const json = await fetchModelsDevJson(options);
  return buildCatalogue(json, options.build);
}
