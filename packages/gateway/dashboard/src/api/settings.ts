import type {
  AgentsMdJson,
  CreatedTokenJson,
  McpServerListJson,
  ModelListJson,
  OutputStyleInputJson,
  OutputStyleJson,
  OutputStyleListJson,
  PermissionsJson,
  PermissionsPatchJson,
  ProviderListJson,
  TokenListJson,
} from '../../../src/http/api-types/index.js';
import { request } from './http';

const withSignal = (signal?: AbortSignal) => (signal === undefined ? {} : { signal });

/** Providers and where each key comes from (never the key). */
export function listProviders(signal?: AbortSignal) {
  return request<ProviderListJson>('/providers', withSignal(signal));
}

/** The catalogue models of the configured providers, with prices. */
export function listModels(signal?: AbortSignal) {
  return request<ModelListJson>('/models', withSignal(signal));
}

export function listMcpServers(signal?: AbortSignal) {
  return request<McpServerListJson>('/mcp-servers', withSignal(signal));
}

export function getPermissions(signal?: AbortSignal) {
  return request<PermissionsJson>('/settings/permissions', withSignal(signal));
}

/** Replaces the mode and the rule lists given, in boxagnts.json. */
export function updatePermissions(patch: PermissionsPatchJson) {
  return request<PermissionsJson>('/settings/permissions', { method: 'PATCH', body: patch });
}

export function getAgentsMd(signal?: AbortSignal) {
  return request<AgentsMdJson>('/settings/agents-md', withSignal(signal));
}

export function saveAgentsMd(content: string) {
  return request<AgentsMdJson>('/settings/agents-md', { method: 'PUT', body: { content } });
}

export function listOutputStyles(signal?: AbortSignal) {
  return request<OutputStyleListJson>('/settings/output-styles', withSignal(signal));
}

/** Writes `output-styles/<name>.md` (a new style, or the workspace's own version of one). */
export function saveOutputStyle(name: string, input: OutputStyleInputJson) {
  return request<OutputStyleJson>(`/settings/output-styles/${encodeURIComponent(name)}`, {
    method: 'PUT',
    body: input,
  });
}

export function deleteOutputStyle(name: string) {
  return request<void>(`/settings/output-styles/${encodeURIComponent(name)}`, { method: 'DELETE' });
}

export function listTokens(signal?: AbortSignal) {
  return request<TokenListJson>('/tokens', withSignal(signal));
}

/** A new token: the answer is the only time it is seen. */
export function createToken(name: string) {
  return request<CreatedTokenJson>('/tokens', { method: 'POST', body: { name } });
}

export function revokeToken(name: string) {
  return request<void>(`/tokens/${encodeURIComponent(name)}`, { method: 'DELETE' });
}
