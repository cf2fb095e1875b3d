import { redactSecrets } from '../shared/redact-secrets.js';
import { createLlmError } from '../spec/create-llm-error.js';
import { isLlmError, type LlmError } from '../spec/llm-error.js';
import { isAbortedError } from '../spec/llm-error-classes.js';
import type { LlmCallOptions, LlmProvider, ModelInfo } from '../spec/provider.js';
import type { LlmRequest } from '../spec/request.js';
import type { AssistantResponse } from '../spec/response.js';
import type { StreamEvent } from '../spec/stream-event.js';
import type { ProviderAdapterFactory } from './adapter-factories.js';
import { matchesModel } from './model-pattern.js';
import { ProviderConfigurationError } from './provider-configuration-error.js';
import type { ModelOverride, ProviderEntry } from './provider-entry.js';
import type { ProviderOptions } from './provider-options.js';
import { baseURLTemplate, parameterOptions, resolveAdapterSettings } from './resolve-adapter-settings.js';

/** What {@link createEntryProvider} needs besides the row and the options. */
export interface EntryProviderContext {
  /** The factory of an adapter id, looked up when the first request is made (plugins may register late). */
  adapterFactory: (adapterId: string) => ProviderAdapterFactory | undefined;
  /** The models the catalogue lists for a row, for `listModels()` when the vendor cannot answer. */
  catalogueModels: (entry: ProviderEntry) => ModelInfo[];
}

/**
 * Makes the {@link LlmProvider} of a provider row. Adapter clients are made lazily, on the first
 * request, one per distinct set of matching model overrides (and per model when the base URL has a
 * `{model}` placeholder), so parameters and optional keys are read from the environment then, never
 * at creation. A configuration problem found then (a missing parameter, an unregistered adapter)
 * arrives like any other failure: an `error` event from `streamMessage`, a rejection elsewhere.
 */
export function createEntryProvider(
  entry: ProviderEntry,
  options: ProviderOptions,
  context: EntryProviderContext,
): LlmProvider {
  const overrides: readonly ModelOverride<unknown>[] = entry.modelOverrides ?? [];
  const template = baseURLTemplate(entry, options);
  // Unknown parameters and regions are programmer errors: refused now, not at the first request.
  parameterOptions(entry, options);
  const clients = new Map<string, LlmProvider>();

  function clientFor(model: string): { client: LlmProvider; matched: readonly ModelOverride<unknown>[] } {
    const matched = overrides.filter((override) => matchesModel(override.match, model));
    const perModel = template?.includes('{model}') === true;
    const key = `${matched.map((override) => overrides.indexOf(override)).join(',')}|${perModel ? model : ''}`;
    let client = clients.get(key);
    if (client === undefined) {
      client = makeClient(model, matched);
      clients.set(key, client);
    }
    return { client, matched };
  }

  function makeClient(model: string, matched: readonly ModelOverride<unknown>[]): LlmProvider {
    const factory = context.adapterFactory(entry.adapter);
    if (factory === undefined) {
      throw new ProviderConfigurationError({
        providerId: entry.id,
        message: `Provider "${entry.id}" uses the adapter "${entry.adapter}", which is not registered: apply the plugin that provides it (registry.use(plugin)) or registry.registerAdapter("${entry.adapter}", factory).`,
      });
    }
    return factory(resolveAdapterSettings(entry, options, model, matched, options.env ?? process.env));
  }

  function withDefaults(request: LlmRequest, matched: readonly ModelOverride<unknown>[]): LlmRequest {
    if (request.temperature !== undefined) return request;
    const fromOverride = matched.findLast((override) => override.defaultTemperature !== undefined);
    const temperature = fromOverride?.defaultTemperature ?? entry.defaultTemperature;
    return temperature === undefined ? request : { ...request, temperature };
  }

  return {
    id: entry.id,
    adapter: entry.adapter,
    name: entry.name,

    streamMessage(request: LlmRequest, callOptions: LlmCallOptions = {}): AsyncIterable<StreamEvent> {
      return (async function* stream(): AsyncGenerator<StreamEvent> {
        let resolved: ReturnType<typeof clientFor>;
        try {
          resolved = clientFor(request.model);
        } catch (error) {
          yield { type: 'error', error: toLlmError(error, entry.id) };
          return;
        }
        yield* resolved.client.streamMessage(withDefaults(request, resolved.matched), callOptions);
      })();
    },

    async createMessage(request: LlmRequest, callOptions: LlmCallOptions = {}): Promise<AssistantResponse> {
      const { client, matched } = clientFor(request.model);
      return client.createMessage(withDefaults(request, matched), callOptions);
    },

    async listModels(callOptions: LlmCallOptions = {}): Promise<ModelInfo[]> {
      if (entry.modelListing === 'catalogue' || template?.includes('{model}') === true) {
        return context.catalogueModels(entry);
      }
      try {
        return await clientFor(entry.defaultModel ?? '').client.listModels(callOptions);
      } catch (error) {
        if (isAbortedError(error) || callOptions.signal?.aborted === true) throw error;
        const models = context.catalogueModels(entry);
        if (models.length > 0) return models;
        throw error;
      }
    },
  };
}

function toLlmError(error: unknown, providerId: string): LlmError {
  if (isLlmError(error)) return error;
  return createLlmError({
    reason: 'unknown',
    providerId,
    cause: error,
    message: `Provider "${providerId}" could not be set up: ${redactSecrets(error instanceof Error ? error.message : String(error))}`,
  });
}
