// The public surface of @boxagnts/tools-manager: what users call, grouped by purpose, the main function first.
// Explicit named exports only; helpers used inside the package stay inside it (index.test.ts holds the list).

// Access levels and name lists
export {
  AccessLevelError,
  accessFilter,
  filterToolsByAccess,
  isAccessLevel,
  isAccessLevelError,
} from './access/access-level.js';
export { applyNameLists, type ToolNameLists } from './access/name-lists.js';
export type { CommandHookPayload } from './hooks/command-hook-payload.js';
// Hooks
export { checkHookLocation, type HookLocation } from './hooks/hook-location.js';
export type { McpConnectionState } from './mcp/mcp-connection.js';
export {
  isMcpConfigError,
  isMcpConnectionError,
  isMcpSourceError,
  McpConfigError,
  McpConnectionError,
  McpSourceError,
  type McpSourceErrorReason,
} from './mcp/mcp-errors.js';
export type {
  McpHttpTransportConfig,
  McpServerConfig,
  McpStdioTransportConfig,
  ResolvedMcpServerConfig,
} from './mcp/mcp-server-config.js';
export {
  createMcpToolSource,
  type McpServerStatus,
  type McpToolSource,
  type McpToolSourceOptions,
} from './mcp/mcp-tool-source.js';
export { MAX_MCP_SCHEMA_DEPTH, MAX_MCP_SCHEMA_NODES } from './mcp/schema-bounds.js';
// Tool sources: native tools, MCP servers, plugins
export { type NativeToolSourceOptions, nativeToolSource } from './native-source/native-tool-source.js';
export {
  isPermissionRuleError,
  PermissionRuleError,
  type PermissionRuleErrorReason,
} from './permissions/parse-rule.js';
// Permission rules and modes
export { createPermissionEngine, type PermissionEngineOptions } from './permissions/permission-engine.js';
export {
  isPermissionMode,
  isPermissionModeError,
  PERMISSION_MODES,
  PermissionModeError,
} from './permissions/permission-mode.js';
export { suggestRules } from './permissions/suggest-rules.js';
export { type LoadPluginOptions, loadPlugin } from './plugins/load-plugin.js';
export {
  isPluginLoadError,
  PluginLoadError,
  type PluginLoadErrorOptions,
  type PluginLoadErrorReason,
} from './plugins/plugin-load-error.js';
export { type PluginToolSource, type PluginToolSourceOptions, pluginToolSource } from './plugins/plugin-tool-source.js';
export {
  definePlugin,
  type LoadedPlugin,
  type PluginApi,
  type PluginSetup,
  type ToolPlugin,
} from './plugins/plugin-types.js';
// Assembling an agent's tool set
export { createToolSet } from './tool-set/create-tool-set.js';
export type { DeferOptions } from './tool-set/defer-tools.js';
export {
  isToolNameCollisionError,
  isToolSetError,
  ToolNameCollisionError,
  ToolSetError,
  type ToolSetErrorReason,
} from './tool-set/tool-set-error.js';
export type { PermissionDecider, ToolSetEvent } from './tool-set/tool-set-events.js';
export type { ToolSet, ToolSetOptions } from './tool-set/tool-set-types.js';

// Shared types
export type {
  AccessFilter,
  AccessLevel,
  AfterToolEvent,
  AfterToolHook,
  AfterToolOutcome,
  AskHandler,
  BeforeToolEvent,
  BeforeToolHook,
  BeforeToolOutcome,
  CommandHook,
  FunctionHook,
  HookFailure,
  PermissionAnswer,
  PermissionDecision,
  PermissionEngine,
  PermissionMode,
  PermissionRequest,
  PermissionRules,
  ToolHooks,
} from './types.js';
