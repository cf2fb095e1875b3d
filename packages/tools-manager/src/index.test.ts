import { describe, expect, it } from 'vitest';
import * as entry from './index.js';

// The package's main entry offers what users call and nothing else: a name added here is a
// public API to keep, a name removed a breaking change. Types are checked by the compiler.
const PUBLIC_VALUES = [
  // Assembling an agent's tool set
  'createToolSet',
  'ToolSetError',
  'isToolSetError',
  'ToolNameCollisionError',
  'isToolNameCollisionError',
  // Tool sources
  'nativeToolSource',
  'createMcpToolSource',
  'McpConfigError',
  'isMcpConfigError',
  'McpConnectionError',
  'isMcpConnectionError',
  'McpSourceError',
  'isMcpSourceError',
  'MAX_MCP_SCHEMA_DEPTH',
  'MAX_MCP_SCHEMA_NODES',
  'definePlugin',
  'loadPlugin',
  'pluginToolSource',
  'PluginLoadError',
  'isPluginLoadError',
  // Permission rules and modes
  'createPermissionEngine',
  'suggestRules',
  'PermissionRuleError',
  'isPermissionRuleError',
  'PERMISSION_MODES',
  'isPermissionMode',
  'PermissionModeError',
  'isPermissionModeError',
  // Access levels and name lists
  'filterToolsByAccess',
  'accessFilter',
  'isAccessLevel',
  'AccessLevelError',
  'isAccessLevelError',
  'applyNameLists',
  // Hooks
  'checkHookLocation',
];

describe('@boxagnts/tools-manager entry', () => {
  it('exports exactly the public names', () => {
    expect(Object.keys(entry).sort()).toEqual([...PUBLIC_VALUES].sort());
  });

  it('keeps the shell parser and hook runners inside the package', () => {
    for (const internal of [
      'parseCommand',
      'runBeforeToolHooks',
      'runAfterToolHooks',
      'HARMLESS_ENVIRONMENT_VARIABLES',
    ]) {
      expect(Object.keys(entry)).not.toContain(internal);
    }
  });
});
