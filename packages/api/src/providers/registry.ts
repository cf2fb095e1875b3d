import type { LlmProvider, ModelInfo } from '../spec/provider.js';
import { BUILTIN_ADAPTER_FACTORIES, isBuiltinAdapterId, type ProviderAdapterFactory } from './adapter-factories.js';
import { BUILTIN_PROVIDERS } from './builtin-providers.js';
import { type ProviderCatalogue, SHIPPED_PROVIDER_CATALOGUE } from './catalogue-models.js';
import { createEntryProvider } from './entry-provider.js';
import { BUILTIN_PROVIDER_ALIASES, type ProviderAlias } from './provider-aliases.js';
import { createProviderChain, PROVIDER_CHAIN_ADAPTER, type ProviderChainSettings } from './provider-chain.js';
import { ProviderConfigurationError } from './provider-configuration-error.js';
import type { ProviderEntry, ThirdPartyAdapterId } from './provider-entry.js';
import type { ProviderOptions } from './provider-options.js';
import { type ProviderStatus, providerStatus } from './provider-status.js';

/**
 * A plugin: a function that receives the registry and registers providers and adapters on it. An npm
 * plugin package exports one; users apply it with `registry.use(plugin)`.
 *
 * @example
 * export const plugin: ProviderPlugin = (registry) => {
 *   registry.registerAdapter('acme:chat', createAcmeChatProvider);
 *   registry.register(acmeProvider);
 * };
 */
export type ProviderPlugin = (registry: ProviderRegistry) => void;

/** What `registry.resolve('provider/model')` returns. */
export interface ResolvedModel {
  /** The provider, ready for `streamMessage({model, ...})`. */
  provider: LlmProvider;
  /** The vendor's model id (everything after the first `/`, so OpenRouter-style ids keep theirs). */
  model: string;
  /** The provider's row. */
  entry: ProviderEntry;
}

/** Options of {@link createProviderRegistry}. */
export interface ProviderRegistryOptions {
  /** The environment keys and parameters are read from; default `process.env`, read when needed. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The rows to start with; default {@link BUILTIN_PROVIDERS}. Pass `[]` for an empty registry. */
  providers?: readonly ProviderEntry[];
  /** Options per provider id (explicit keys, base URLs, parameters) used by `getProvider`, `resolve` and `list`. */
  providerOptions?: Readonly<Record<string, ProviderOptions>>;
  /** The provider a bare model name (no `provider/`) resolves to, before the catalogue is asked. */
  defaultProvider?: string;
  /** The model catalogue for `listModels()` fallbacks and bare model names; default the shipped one. */
  catalogue?: ProviderCatalogue;
  /**
   * Other names of rows (BoxAgnts' and models.dev's ids); default {@link BUILTIN_PROVIDER_ALIASES}.
   * An alias whose row is not registered is kept and resolves once the row is registered.
   */
  aliases?: readonly ProviderAlias[];
}

/** Options of {@link ProviderRegistry.createProvider}: a provider id plus {@link ProviderOptions}. */
export interface CreateProviderOptions extends ProviderOptions {
  /** The provider's id (`deepseek`, `azure-openai`, or one a plugin registered). */
  provider: string;
}

/**
 * The provider table at run time: rows by id, adapters by id, and the providers made from them.
 * Third parties add rows and adapters (and remove them again); `resolve('provider/model')` and
 * `getProvider(id)` hand out cached providers, `createProvider` a new one with options.
 */
export interface ProviderRegistry {
  /** Adds a row. An id that is taken is an error unless `replace` is set (then cached providers of it are dropped). */
  register(entry: ProviderEntry, options?: { replace?: boolean }): void;
  /** Removes a row; `false` when there was none. */
  unregister(id: string): boolean;
  /**
   * Adds another name for a row (`{alias: 'together-ai', provider: 'together'}`), optionally with a
   * region preset. A name that is already a row id or an alias is an error unless `replace` is set.
   */
  registerAlias(alias: ProviderAlias, options?: { replace?: boolean }): void;
  /** Every alias, in registration order. */
  aliases(): ProviderAlias[];
  /** The row id a provider id or alias stands for (`together-ai` -> `together`); `undefined` when neither. */
  resolveId(idOrAlias: string): string | undefined;
  /** Adds a third-party adapter (its id must contain `:`, e.g. `acme:chat`); built-in ids cannot be replaced. */
  registerAdapter<Settings extends object = Record<string, unknown>>(
    id: ThirdPartyAdapterId,
    factory: ProviderAdapterFactory<Settings>,
  ): void;
  /** Removes a third-party adapter; rows that use it fail with a clear error until it is registered again. */
  unregisterAdapter(id: ThirdPartyAdapterId): boolean;
  /** Applies a plugin and returns the registry, so calls chain. */
  use(plugin: ProviderPlugin): ProviderRegistry;
  /** The row of a provider id (or alias). */
  get(id: string): ProviderEntry | undefined;
  /** Every provider with its configured state, in registration order. Never holds a key. */
  list(): ProviderStatus[];
  /** Sets the options `getProvider`, `resolve` and `list` use for one provider (an explicit key, a base URL). */
  configure(id: string, options: ProviderOptions): void;
  /** A new provider from a row and options; keys are read when a request is made. */
  createProvider(options: CreateProviderOptions): LlmProvider;
  /** The provider of an id with its configured options, made once and cached. */
  getProvider(id: string): LlmProvider;
  /**
   * Resolves `provider/model` (`deepseek/deepseek-chat`, `openrouter/anthropic/claude-sonnet-4.5`). A
   * bare model name goes to `defaultProvider`, else to the first configured provider (in registration
   * order, vendors before aggregators) whose catalogue lists it.
   */
  resolve(modelReference: string): ResolvedModel;
}

/**
 * Creates a provider registry: the built-in rows (or `providers`) and adapters, plus whatever
 * plugins add.
 *
 * @example
 * const registry = createProviderRegistry();
 * const { provider, model } = registry.resolve('deepseek/deepseek-chat');
 * for await (const event of provider.streamMessage({ model, messages: [{ role: 'user', content: 'Hi' }] })) {
 *   if (event.type === 'text-delta') process.stdout.write(event.delta);
 * }
 * registry.list().filter((status) => status.configured).map((status) => status.id);
 */
export function createProviderRegistry(options: ProviderRegistryOptions = {}): ProviderRegistry {
  const entries = new Map<string, ProviderEntry>();
  const adapters = new Map<string, ProviderAdapterFactory>();
  const configured = new Map<string, ProviderOptions>(Object.entries(options.providerOptions ?? {}));
  const cache = new Map<string, LlmProvider>();
  const catalogue = options.catalogue ?? SHIPPED_PROVIDER_CATALOGUE;
  const environment = () => options.env ?? process.env;
  const aliasMap = new Map<string, ProviderAlias>();

  /** A chain row's adapter, resolving its upstreams' ids through this registry. */
  const chainFactory: ProviderAdapterFactory = (settings) =>
    createProviderChain({
      ...(settings as unknown as ProviderChainSettings),
      resolveProvider: (id) => {
        if (entryOf(canonicalId(id)).adapter === PROVIDER_CHAIN_ADAPTER) {
          throw new ProviderConfigurationError({
            providerId: id,
            message: `Provider "${id}" is itself a provider chain: a chain's upstreams must be providers, not chains.`,
          });
        }
        return registry.getProvider(id);
      },
      isAvailable: (id) => upstreamConfigured(id),
    });

  const context = {
    adapterFactory: (adapterId: string): ProviderAdapterFactory | undefined =>
      adapterId === PROVIDER_CHAIN_ADAPTER
        ? chainFactory
        : isBuiltinAdapterId(adapterId)
          ? (BUILTIN_ADAPTER_FACTORIES[adapterId] as unknown as ProviderAdapterFactory)
          : adapters.get(adapterId),
    catalogueModels: (entry: ProviderEntry): ModelInfo[] => catalogue.listModels(entry),
  };

  /** The row id `id` stands for: itself when it is a row (rows win over aliases), else its alias target. */
  function canonicalId(id: string): string {
    if (entries.has(id)) return id;
    return aliasMap.get(id)?.provider ?? id;
  }

  function entryOf(id: string): ProviderEntry {
    const entry = entries.get(canonicalId(id));
    if (entry === undefined) {
      const alias = aliasMap.get(id);
      throw new ProviderConfigurationError({
        providerId: id,
        message:
          alias === undefined
            ? `Unknown provider "${id}": register it (registry.register(entry)) or use one of ${[...entries.keys()].join(', ')}.`
            : `Provider "${id}" is an alias of "${alias.provider}", which is not registered: register that row first.`,
      });
    }
    return entry;
  }

  /** The options of `id` as asked (an alias's own, else its row's), with the alias's region preset. */
  function optionsOf(id: string): ProviderOptions {
    const target = canonicalId(id);
    const alias = target === id ? undefined : aliasMap.get(id);
    let explicit = configured.get(id) ?? configured.get(target) ?? {};
    if (alias?.region !== undefined && explicit.region === undefined && explicit.baseURL === undefined) {
      explicit = { ...explicit, region: alias.region };
    }
    return options.env === undefined || explicit.env !== undefined ? explicit : { ...explicit, env: options.env };
  }

  function statusOf(entry: ProviderEntry, id: string): ProviderStatus {
    const explicit = configured.get(id) ?? configured.get(entry.id) ?? {};
    const status = providerStatus(entry, { ...explicit }, explicit.env ?? environment());
    const names = [...aliasMap.values()].filter((alias) => alias.provider === entry.id).map((alias) => alias.alias);
    const withAliases = names.length === 0 ? status : { ...status, aliases: names };
    if (entry.adapter !== PROVIDER_CHAIN_ADAPTER) return withAliases;
    const upstreams = chainUpstreamIds(entry);
    const usable = upstreams.filter(upstreamConfigured);
    return {
      ...withAliases,
      configured: usable.length > 0,
      credentialSource: usable.length > 0 ? 'not-needed' : undefined,
      missing: usable.length > 0 ? [] : [`a key for at least one upstream: ${upstreams.join(', ')}`],
    };
  }

  /** Whether an upstream of a chain is usable now (a chain inside a chain never is). */
  function upstreamConfigured(id: string): boolean {
    const entry = entries.get(canonicalId(id));
    if (entry === undefined || entry.adapter === PROVIDER_CHAIN_ADAPTER) return false;
    return statusOf(entry, id).configured;
  }

  function dropAliasesOf(id: string) {
    for (const alias of aliasMap.values()) if (alias.provider === id) cache.delete(alias.alias);
  }

  const registry: ProviderRegistry = {
    register(entry, registerOptions = {}) {
      checkEntry(entry);
      if (entries.has(entry.id) && registerOptions.replace !== true) {
        throw new ProviderConfigurationError({
          providerId: entry.id,
          message: `A provider "${entry.id}" is already registered: unregister it first or pass { replace: true }.`,
        });
      }
      entries.set(entry.id, entry);
      cache.delete(entry.id);
      dropAliasesOf(entry.id);
    },

    unregister(id) {
      cache.delete(id);
      dropAliasesOf(id);
      return entries.delete(id);
    },

    registerAlias(alias, aliasOptions = {}) {
      if (!/^[a-z0-9][a-z0-9._-]*$/.test(alias.alias) || alias.provider.trim() === '') {
        throw new ProviderConfigurationError({
          providerId: alias.alias,
          message: `Alias "${alias.alias}" is invalid: an alias is lower-case letters, digits, ".", "_" or "-", and names a provider.`,
        });
      }
      if (alias.alias === alias.provider) {
        throw new ProviderConfigurationError({
          providerId: alias.alias,
          message: `Alias "${alias.alias}" names itself: point it at another provider id.`,
        });
      }
      const taken = entries.has(alias.alias) ? 'a provider id' : aliasMap.has(alias.alias) ? 'an alias' : undefined;
      if (taken !== undefined && aliasOptions.replace !== true) {
        throw new ProviderConfigurationError({
          providerId: alias.alias,
          message: `"${alias.alias}" is already ${taken}: pick another name or pass { replace: true }.`,
        });
      }
      if (aliasMap.has(alias.provider)) {
        throw new ProviderConfigurationError({
          providerId: alias.alias,
          message: `Alias "${alias.alias}" points at "${alias.provider}", which is itself an alias: point it at the row "${aliasMap.get(alias.provider)?.provider}".`,
        });
      }
      aliasMap.set(alias.alias, { ...alias });
      cache.delete(alias.alias);
    },

    aliases() {
      return [...aliasMap.values()].map((alias) => ({ ...alias }));
    },

    resolveId(idOrAlias) {
      const id = canonicalId(idOrAlias);
      return entries.has(id) ? id : undefined;
    },

    registerAdapter(id, factory) {
      if (isBuiltinAdapterId(id) || !/^[^\s:]+:\S+$/.test(id)) {
        throw new ProviderConfigurationError({
          message: `Adapter id "${id}" is not allowed: a third-party adapter id must contain ":" (e.g. "acme:chat") and cannot replace a built-in one.`,
        });
      }
      adapters.set(id, factory as ProviderAdapterFactory);
      dropProvidersOfAdapter(id);
    },

    unregisterAdapter(id) {
      dropProvidersOfAdapter(id);
      return adapters.delete(id);
    },

    use(plugin) {
      plugin(registry);
      return registry;
    },

    get(id) {
      return entries.get(canonicalId(id));
    },

    list() {
      return [...entries.values()].map((entry) => statusOf(entry, entry.id));
    },

    configure(id, providerOptions) {
      configured.set(id, providerOptions);
      cache.delete(id);
      dropAliasesOf(canonicalId(id));
    },

    createProvider({ provider, ...providerOptions }) {
      const merged = { ...optionsOf(provider), ...providerOptions };
      return createEntryProvider(entryOf(provider), merged, context);
    },

    getProvider(id) {
      let provider = cache.get(id);
      if (provider === undefined) {
        provider = createEntryProvider(entryOf(id), optionsOf(id), context);
        cache.set(id, provider);
      }
      return provider;
    },

    resolve(modelReference) {
      const reference = modelReference.trim();
      const slash = reference.indexOf('/');
      if (slash > 0 && registry.resolveId(reference.slice(0, slash)) !== undefined) {
        const id = reference.slice(0, slash);
        const model = reference.slice(slash + 1);
        if (model === '') {
          throw new ProviderConfigurationError({
            providerId: id,
            message: `"${modelReference}" names no model: write "${id}/<model>".`,
          });
        }
        return { provider: registry.getProvider(id), model, entry: entryOf(id) };
      }
      const id = providerForBareModel(reference);
      return { provider: registry.getProvider(id), model: reference, entry: entryOf(id) };
    },
  };

  function providerForBareModel(model: string): string {
    if (options.defaultProvider !== undefined) return options.defaultProvider;
    const statuses = new Map(registry.list().map((status) => [status.id, status]));
    for (const entry of entries.values()) {
      if (statuses.get(entry.id)?.configured !== true) continue;
      if (catalogue.hasModel(entry, model)) return entry.id;
    }
    throw new ProviderConfigurationError({
      message: `Cannot tell which provider serves "${model}": write "provider/${model}" (e.g. "openai/${model}"), set the registry's defaultProvider, or configure a provider whose catalogue lists the model.`,
    });
  }

  function dropProvidersOfAdapter(adapterId: string) {
    for (const entry of entries.values()) if (entry.adapter === adapterId) cache.delete(entry.id);
  }

  for (const entry of options.providers ?? BUILTIN_PROVIDERS) registry.register(entry);
  for (const alias of options.aliases ?? BUILTIN_PROVIDER_ALIASES) {
    if (!entries.has(alias.alias)) registry.registerAlias(alias);
  }
  return registry;
}

/** The provider ids (or aliases) a chain row names as its upstreams. */
function chainUpstreamIds(entry: ProviderEntry): string[] {
  const upstreams = (entry.settings as Partial<ProviderChainSettings> | undefined)?.upstreams ?? [];
  return upstreams.flatMap((upstream) => (typeof upstream.provider === 'string' ? [upstream.provider] : []));
}

/** Refuses rows that cannot work, with the field to fix. */
function checkEntry(entry: ProviderEntry): void {
  const problems: string[] = [];
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(entry.id))
    problems.push('`id` must be lower-case letters, digits, ".", "_" or "-"');
  if (entry.name.trim() === '') problems.push('`name` is empty');
  if (!isBuiltinAdapterId(entry.adapter) && !entry.adapter.includes(':')) {
    problems.push(`\`adapter\` "${entry.adapter}" is neither a built-in adapter nor a third-party id with ":"`);
  }
  if (problems.length > 0) {
    throw new ProviderConfigurationError({
      providerId: entry.id,
      message: `Provider row "${entry.id}" is invalid: ${problems.join('; ')}.`,
    });
  }
}
