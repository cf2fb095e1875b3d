import type { AnyTool, ToolContext, ToolLogger, ToolResult, ToolSearchSource, ToolSource } from '@boxagnts/tools';
import type {
  AccessLevel,
  AskHandler,
  PermissionEngine,
  PermissionMode,
  PermissionRules,
  ToolHooks,
} from '../types.js';
import type { DeferOptions } from './defer-tools.js';
import type { ToolSetEvent } from './tool-set-events.js';

/** Options of `createToolSet`. */
export interface ToolSetOptions {
  /** Where the tools come from, in order (the order of `tools()`). The tool set closes them in `close()`. */
  sources: readonly ToolSource[];
  /** Which tools the agent gets by permission level; default `full`. */
  access?: AccessLevel;
  /** Tool-name patterns to keep (only these) ... */
  allow?: readonly string[];
  /** ... and to drop; deny wins. */
  deny?: readonly string[];
  /** A permission engine, or the rules and mode to create one with; default: no rules, `default` mode. */
  permissions?: PermissionEngine | { rules?: PermissionRules; mode?: PermissionMode };
  /** Asks the user when the rules say `ask`; without one, such calls are denied with a reason the model sees. */
  ask?: AskHandler;
  hooks?: ToolHooks;
  /**
   * The agents' roots: folders sandboxed tools can write (each call's `context.root` always counts
   * too). A command hook whose working folder or named file lies inside one, links followed, is a
   * `ToolSetError` (`unsafe-hook`) here and a refused call at run time.
   */
  roots?: readonly string[];
  /** When tools are kept behind `tool_search` (see {@link DeferOptions}). */
  defer?: DeferOptions;
  /** Told about permission decisions, asks, hook failures and tool loading. Must not throw (throws are logged and ignored). */
  onEvent?: (event: ToolSetEvent) => void;
  logger?: ToolLogger;
}

/**
 * An agent's tools, assembled from sources, filtered, guarded by plan mode, hooks and permission
 * rules, with large sets deferred behind `tool_search`. It is the `ToolSearchSource` of its own
 * `tool_search`.
 */
export interface ToolSet extends ToolSearchSource {
  /** The guarded tools to give the model now: every loaded tool, and `tool_search` when something is deferred. */
  tools(): AnyTool[];
  /** Every tool of the set, deferred ones included, unguarded (for listings and search; not for running). */
  all(): AnyTool[];
  /** The guarded tool of that name (loaded or deferred), or undefined. */
  get(name: string): AnyTool | undefined;
  /** The source that offered the tool of that name (`tool_search` is the tool set's own: `tool-set`), or undefined. */
  sourceOf(name: string): { name: string; kind: ToolSource['kind'] | 'tool-set' } | undefined;
  /** Whether the tool is in the set and loaded (not deferred, or selected through `tool_search`/`load`). */
  isLoaded(name: string): boolean;
  /** Loads deferred tools by exact name; returns the requested names that are loaded afterwards. */
  load(names: string[]): string[];
  /**
   * Runs one call through the guarded tool. Never throws: an unknown tool, a deferred tool that is
   * not loaded, a refusal or a failure is an error result the model can act on.
   */
  execute(name: string, input: unknown, context: ToolContext): Promise<ToolResult>;
  /** The engine that decides calls; add rules or switch modes at run time through it. */
  readonly permissions: PermissionEngine;
  /**
   * Replaces the handler asked when the rules say `ask` (undefined: such calls are refused, as
   * without one), for the calls that start after it. Hosts that lease a tool set to one run at a
   * time give each run its own (a run whose watcher can answer, or none).
   */
  setAsk(handler: AskHandler | undefined): void;
  /** Loads every source again (new, changed and removed tools); tools selected through `tool_search` stay loaded. */
  refresh(signal?: AbortSignal): Promise<void>;
  /** Closes every source; failures are collected into one `ToolSetError` (`close-failed`). */
  close(): Promise<void>;
}
