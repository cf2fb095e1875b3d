// The public surface of @boxagnts/tools-manager. Explicit named exports only.
export {
  AccessLevelError,
  accessFilter,
  filterToolsByAccess,
  isAccessLevel,
  isAccessLevelError,
} from './access/access-level.js';
export { applyNameLists, type ToolNameLists } from './access/name-lists.js';
export type { CommandHookPayload } from './hooks/command-hook-payload.js';
export { DEFAULT_HOOK_TIMEOUT_MS } from './hooks/hook-answer.js';
export { INHERITED_HOOK_VARIABLES } from './hooks/hook-environment.js';
export { checkHookLocation, type HookLocation, hookWorkingFolder } from './hooks/hook-location.js';
export {
  type BeforeHooksResult,
  type InputCheck,
  type RunHooksOptions,
  runAfterToolHooks,
  runBeforeToolHooks,
} from './hooks/run-hooks.js';
export { HOOK_OUTPUT_LIMIT_BYTES } from './hooks/spawn-hook-command.js';
export { type McpToolAnnotations, mapToolPermission } from './mcp/map-tool-permission.js';
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
export {
  MCP_SERVER_DEFAULTS,
  type McpHttpTransportConfig,
  type McpServerConfig,
  type McpStdioTransportConfig,
  parseMcpServerConfig,
  type ResolvedMcpServerConfig,
} from './mcp/mcp-server-config.js';
export { MCP_TOOL_PREFIX, mcpToolName } from './mcp/mcp-tool-names.js';
export {
  createMcpToolSource,
  type McpServerStatus,
  type McpToolSource,
  type McpToolSourceOptions,
} from './mcp/mcp-tool-source.js';
export { MAX_MCP_SCHEMA_DEPTH, MAX_MCP_SCHEMA_NODES } from './mcp/schema-bounds.js';
export { type NativeToolSourceOptions, nativeToolSource } from './native-source/native-tool-source.js';
export { SUBJECT_FIELDS, type SubjectField } from './permissions/call-subject.js';
export { HARMLESS_ENVIRONMENT_VARIABLES } from './permissions/command-candidates.js';
export {
  isPermissionRuleError,
  PermissionRuleError,
  type PermissionRuleErrorReason,
  parsePermissionRule,
} from './permissions/parse-rule.js';
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
export { createToolSet } from './tool-set/create-tool-set.js';
export { DEFAULT_DEFER_THRESHOLD, type DeferOptions } from './tool-set/defer-tools.js';
export {
  isToolNameCollisionError,
  isToolSetError,
  ToolNameCollisionError,
  ToolSetError,
  type ToolSetErrorReason,
} from './tool-set/tool-set-error.js';
export type { PermissionDecider, ToolSetEvent } from './tool-set/tool-set-events.js';
export type { ToolSet, ToolSetOptions } from './tool-set/tool-set-types.js';
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
  ParsedPermissionRule,
  PermissionAnswer,
  PermissionDecision,
  PermissionEngine,
  PermissionMode,
  PermissionRequest,
  PermissionRules,
  ToolHooks,
} from './types.js';
