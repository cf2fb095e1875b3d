import type { LlmProvider } from '../spec/provider.js';
import {
  type CreateProviderOptions,
  createProviderRegistry,
  type ProviderRegistry,
  type ResolvedModel,
} from './registry.js';

let defaultRegistry: ProviderRegistry | undefined;

/**
 * The process-wide registry behind {@link createProvider}, {@link getProvider} and
 * {@link resolveModel}: the built-in rows, keys from `process.env`. Made on first use, so importing
 * the package has no side effects. Plugins applied to it are seen by all three.
 *
 * @example
 * getDefaultProviderRegistry().use(acmePlugin);
 */
export function getDefaultProviderRegistry(): ProviderRegistry {
  defaultRegistry ??= createProviderRegistry();
  return defaultRegistry;
}

/**
 * A new {@link LlmProvider} for a provider of the default registry, with options over its row. Not
 * cached: each call makes its own (cheap; nothing is read or connected until a request is made).
 *
 * @example
 * const glm = createProvider({ provider: 'zhipu', region: 'china' });
 * const local = createProvider({ provider: 'openai-compatible', baseURL: 'http://127.0.0.1:8000/v1' });
 */
export function createProvider(options: CreateProviderOptions): LlmProvider {
  return getDefaultProviderRegistry().createProvider(options);
}

/**
 * The cached {@link LlmProvider} of a provider id in the default registry (key from its environment
 * variables, read when a request is made).
 *
 * @example
 * const deepseek = getProvider('deepseek');
 * const response = await deepseek.createMessage({ model: 'deepseek-chat', messages: [{ role: 'user', content: 'Hi' }] });
 */
export function getProvider(id: string): LlmProvider {
  return getDefaultProviderRegistry().getProvider(id);
}

/**
 * Resolves `provider/model` against the default registry.
 *
 * @example
 * const { provider, model } = resolveModel('anthropic/claude-sonnet-4-6');
 */
export function resolveModel(modelReference: string): ResolvedModel {
  return getDefaultProviderRegistry().resolve(modelReference);
}
