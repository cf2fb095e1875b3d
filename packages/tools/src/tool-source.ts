import type { AnyTool } from './tool.js';

/**
 * Where tools come from: the native tools, the sandbox (wasm-tools), an MCP server, a plugin.
 * tools-manager assembles a run's tool set from sources and names the source in every error
 * (a name collision names both). Lower layers implement it without depending on tools-manager.
 *
 * @example
 * const source: ToolSource = { name: 'my-tools', kind: 'custom', load: async () => [echoTool] };
 */
export interface ToolSource {
  /** Unique among the sources of one tool set, e.g. `native`, `sandbox`, `mcp:github`, `plugin:acme`. */
  readonly name: string;
  /** What kind of source it is (for listings and logs). */
  readonly kind: 'native' | 'sandbox' | 'mcp' | 'plugin' | 'custom';
  /** The tools it offers now. Called when the tool set is assembled (and again on refresh). */
  load(signal?: AbortSignal): Promise<readonly AnyTool[]>;
  /** Releases what the source holds (child processes, connections, worker pools). */
  close?(): Promise<void>;
}
