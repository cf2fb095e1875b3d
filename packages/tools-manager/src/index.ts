// The public surface of @boxagnts/tools-manager. Explicit named exports only.
export { type LoadPluginOptions, loadPlugin } from './plugins/load-plugin.js';
export {
  isPluginLoadError,
  PluginLoadError,
  type PluginLoadErrorOptions,
  type PluginLoadErrorReason,
} from './plugins/plugin-load-error.js';
export { type PluginToolSource, type PluginToolSourceOptions, pluginToolSource } from './plugins/plugin-tool-source.js';
export { definePlugin, type LoadedPlugin, type PluginApi, type PluginSetup, type ToolPlugin } from './plugins/plugin-types.js';
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
