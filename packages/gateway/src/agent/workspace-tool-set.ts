import { resolve } from 'node:path';
import type { ToolSource } from '@boxagnts/tools';
import {
  type AskHandler,
  type CommandHook,
  createMcpToolSource,
  createToolSet,
  type LoadedPlugin,
  type McpToolSource,
  nativeToolSource,
  pluginToolSource,
  type ToolSet,
  type ToolSetEvent,
} from '@boxagnts/tools-manager';
import { createSandboxToolSource, type SandboxToolSourceOptions } from '@boxagnts/wasm-tools';
import type { KeyReference, Workspace, WorkspaceAgent } from '@boxagnts/workspace';
import { workspaceSkillFolders } from './skill-folders.js';

/** Options of {@link createWorkspaceToolSet}. */
export interface WorkspaceToolSetOptions {
  /** The agent whose access level filters the tools. */
  agent: WorkspaceAgent;
  /** Tool plugins: package specifiers, paths, or loaded plugins. */
  plugins?: readonly (string | LoadedPlugin)[];
  /** Asked when a permission rule says `ask`; without one such calls are refused with a reason the model reads. */
  ask?: AskHandler;
  /** Options of the sandbox over the workspace defaults (e.g. `bash: false`). */
  sandbox?: Omit<SandboxToolSourceOptions, 'toolsFolder'>;
  onEvent?: (event: ToolSetEvent) => void;
}

/** The tool set of a workspace agent with its MCP sources, for status reports. */
export interface WorkspaceToolSet {
  toolSet: ToolSet;
  mcp: readonly McpToolSource[];
}

async function resolveValues(
  workspace: Workspace,
  values: Readonly<Record<string, string | KeyReference>> | undefined,
  field: string,
): Promise<Record<string, string> | undefined> {
  if (values === undefined) return undefined;
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    resolved[name] =
      typeof value === 'string' ? value : (await workspace.resolveKey(value, `${field}.${name}`)).reveal();
  }
  return resolved;
}

async function mcpSources(workspace: Workspace): Promise<McpToolSource[]> {
  const sources: McpToolSource[] = [];
  for (const [name, entry] of Object.entries(workspace.config.mcpServers)) {
    const field = `mcpServers.${name}.transport`;
    const transport =
      entry.transport.type === 'stdio'
        ? {
            ...entry.transport,
            env: await resolveValues(workspace, entry.transport.env, `${field}.env`),
          }
        : { ...entry.transport, headers: await resolveValues(workspace, entry.transport.headers, `${field}.headers`) };
    sources.push(createMcpToolSource({ ...entry, name, transport } as Parameters<typeof createMcpToolSource>[0]));
  }
  return sources;
}

async function commandHooks(
  workspace: Workspace,
  hooks: Workspace['config']['hooks']['beforeTool'],
  field: string,
): Promise<CommandHook[]> {
  const list: CommandHook[] = [];
  for (const [index, hook] of hooks.entries()) {
    const env = await resolveValues(workspace, hook.env, `${field}.${index}.env`);
    // Hooks run in the workspace folder (outside root/) unless they name a folder, taken relative to it.
    const cwd = resolve(workspace.paths.dir, hook.cwd ?? '.');
    list.push({ ...hook, cwd, ...(env === undefined ? {} : { env }) } as CommandHook);
  }
  return list;
}

/**
 * The tools of a workspace agent: the native tools (with `skill` over the configured skill folders),
 * the sandboxed tools (rooted per call at the run's root, with the workspace's `tools/` components
 * and its network allowlist), every configured MCP server and the given plugins, filtered by the
 * agent's access level and guarded by the config's permission rules, mode and command hooks.
 * Command hooks run in the workspace folder (a relative `cwd` is taken from it); a hook whose
 * working folder or script lies inside `root/` is refused with a `ToolSetError` (`unsafe-hook`).
 */
export async function createWorkspaceToolSet(
  workspace: Workspace,
  options: WorkspaceToolSetOptions,
): Promise<WorkspaceToolSet> {
  const config = workspace.config;
  const mcp = await mcpSources(workspace);
  const sources: ToolSource[] = [
    nativeToolSource({ skills: { folders: workspaceSkillFolders(workspace) } }),
    createSandboxToolSource({
      webFetch: { allowedHosts: config.network.allowedHosts },
      ...options.sandbox,
      toolsFolder: workspace.paths.tools,
    }),
    ...mcp,
    ...(options.plugins ?? []).map((plugin) => pluginToolSource(plugin)),
  ];
  const toolSet = await createToolSet({
    sources,
    // root/ is where sandboxed tools write: a hook run from there, or running a script there, is refused.
    roots: [workspace.paths.root],
    access: options.agent.access,
    permissions: {
      rules: { allow: config.permissions.allow, ask: config.permissions.ask, deny: config.permissions.deny },
      mode: config.permissions.mode,
    },
    hooks: {
      beforeTool: await commandHooks(workspace, config.hooks.beforeTool, 'hooks.beforeTool'),
      afterTool: await commandHooks(workspace, config.hooks.afterTool, 'hooks.afterTool'),
    },
    ...(options.ask === undefined ? {} : { ask: options.ask }),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
  });
  return { toolSet, mcp };
}
