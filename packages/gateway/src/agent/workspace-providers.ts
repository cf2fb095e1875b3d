import { createProviderRegistry, type ProviderRegistry, type ProviderStatus } from '@boxagnts/api';
import type { Workspace } from '@boxagnts/workspace';

/**
 * A provider registry configured from a workspace: every `providers.<id>` override of the config
 * (base URL, region, parameters) and every key the workspace holds for a provider (its `apiKey`
 * reference, else a secret named like the provider). Providers without either read their own
 * environment variables when a request is made.
 */
export async function createWorkspaceRegistry(
  workspace: Workspace,
  registry?: ProviderRegistry,
): Promise<ProviderRegistry> {
  const target = registry ?? createProviderRegistry();
  const ids = new Set<string>([...Object.keys(workspace.config.providers), ...target.list().map((row) => row.id)]);
  for (const id of ids) {
    if (target.get(id) === undefined) continue;
    const configured = workspace.config.providers[id];
    const key = await workspace.providerKey(id);
    if (configured === undefined && key === undefined) continue;
    target.configure(id, {
      ...(key === undefined ? {} : { apiKey: key.reveal() }),
      ...(configured?.baseUrl === undefined ? {} : { baseURL: configured.baseUrl }),
      ...(configured?.region === undefined ? {} : { region: configured.region }),
      ...(configured?.parameters === undefined ? {} : { parameters: configured.parameters }),
    });
  }
  return target;
}

/** What the providers route shows of one provider: its state and where a key would come from, never the key. */
export interface ProviderKeyState {
  id: string;
  name: string;
  adapter: string;
  configured: boolean;
  credentialSource: ProviderStatus['credentialSource'];
  credentialVariables: readonly string[];
  missing: readonly string[];
  defaultModel: string | undefined;
  docsURL: string;
}

/** The registry's providers as {@link ProviderKeyState}s (a copy of the fields, so no future field can leak a key). */
export function providerKeyStates(registry: ProviderRegistry): ProviderKeyState[] {
  return registry.list().map((status) => ({
    id: status.id,
    name: status.name,
    adapter: status.adapter,
    configured: status.configured,
    credentialSource: status.credentialSource,
    credentialVariables: [...status.credentialVariables],
    missing: [...status.missing],
    defaultModel: status.defaultModel,
    docsURL: status.docsURL,
  }));
}
