import { redactUrl } from '@boxagnts/api';
import type { ResolvedConfig } from '@boxagnts/workspace';

const MASK = '***';

function maskValues(values: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> | undefined {
  if (values === undefined) return undefined;
  // Key references ({env}/{secret}) name where a secret lives and are shown; literal strings may be secrets.
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, typeof value === 'string' ? MASK : value]),
  );
}

/**
 * The configuration as the config route shows it: key references kept (they only name a variable
 * or a secret), literal values of MCP `env`/`headers` and hook `env` masked, and a literal store URL
 * shown without its password.
 */
export function maskConfig(config: ResolvedConfig): Record<string, unknown> {
  const mcpServers = Object.fromEntries(
    Object.entries(config.mcpServers).map(([name, entry]) => {
      const transport =
        entry.transport.type === 'stdio'
          ? { ...entry.transport, env: maskValues(entry.transport.env) }
          : { ...entry.transport, url: redactUrl(entry.transport.url), headers: maskValues(entry.transport.headers) };
      return [name, { ...entry, transport }];
    }),
  );
  const hooks = {
    beforeTool: config.hooks.beforeTool.map((hook) => ({ ...hook, env: maskValues(hook.env) })),
    afterTool: config.hooks.afterTool.map((hook) => ({ ...hook, env: maskValues(hook.env) })),
  };
  const store =
    config.store.kind === 'postgres' && typeof config.store.url === 'string'
      ? { kind: 'postgres', url: redactUrl(config.store.url) }
      : config.store;
  return { ...config, mcpServers, hooks, store };
}
