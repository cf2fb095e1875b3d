import type { ProviderPlugin } from '@boxagnts/api';
import { createAcmeChatProvider } from './acme-chat-adapter.js';
import { ACME_ADAPTER_ID, acmeProvider } from './acme-provider.js';

/**
 * The plugin: registers Acme's adapter and its provider row on a registry. A plugin package
 * exports one of these; users apply it with `registry.use(plugin)`.
 *
 * @example
 * import { createProviderRegistry } from '@boxagnts/api';
 * import { plugin } from '@boxagnts/example-provider-plugin';
 * const { provider, model } = createProviderRegistry().use(plugin).resolve('acme/acme-large');
 */
export const plugin: ProviderPlugin = (registry) => {
  registry.registerAdapter(ACME_ADAPTER_ID, createAcmeChatProvider);
  registry.register(acmeProvider);
};
