import type { ToolSet } from '@boxagnts/tools-manager';
import type { ToolOrigin } from './api-types/index.js';

/**
 * Where a tool comes from, in the words of `GET /tools`: the native tools (and the tool set's own
 * `tool_search`) are built in, the sandbox's tools are WebAssembly components (BoxAgnts' own and the
 * workspace's `tools/` folder), then MCP servers and plugins; anything else is a custom source.
 */
export function toolOrigin(source: ReturnType<ToolSet['sourceOf']>): ToolOrigin {
  switch (source?.kind) {
    case 'native':
    case 'tool-set':
      return 'built-in';
    case 'sandbox':
      return 'component';
    case 'mcp':
      return 'mcp';
    case 'plugin':
      return 'plugin';
    default:
      return 'custom';
  }
}
