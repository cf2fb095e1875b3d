import type { SourcedTool } from './load-sources.js';

/** When tools are kept out of the prompt behind `tool_search`. */
export interface DeferOptions {
  /**
   * When more than this many tools would be loaded, tools of MCP sources are deferred (unless they
   * say `deferred: false`). Default 40.
   */
  threshold?: number;
  /** Names of sources whose tools are always deferred. */
  sources?: readonly string[];
}

/** Default of {@link DeferOptions.threshold}. */
export const DEFAULT_DEFER_THRESHOLD = 40;

/**
 * The names of the tools to defer: every tool that says `deferred: true`, every tool of a source
 * listed in `sources`, and, when the set is larger than `threshold`, every tool of an MCP source
 * that does not say `deferred: false`.
 */
export function deferredToolNames(entries: readonly SourcedTool[], options: DeferOptions = {}): Set<string> {
  const threshold = options.threshold ?? DEFAULT_DEFER_THRESHOLD;
  const alwaysSources = new Set(options.sources ?? []);
  const crowded = entries.length > threshold;
  const deferred = new Set<string>();
  for (const { tool, source } of entries) {
    const always = tool.deferred === true || alwaysSources.has(source.name);
    const crowdedOut = crowded && source.kind === 'mcp' && tool.deferred !== false;
    if (always || crowdedOut) deferred.add(tool.name);
  }
  return deferred;
}
