// The plugin package's public door: the plugin, and its parts for users who want them.
export { type AcmeChatSettings, createAcmeChatProvider } from './acme-chat-adapter.js';
export { ACME_ADAPTER_ID, acmeProvider } from './acme-provider.js';
export { plugin } from './plugin.js';
