import type { AnyTool, ToolSource } from '@boxagnts/tools';
import { ToolSetError } from './tool-set-error.js';

/** A tool with the source that offered it. */
export interface SourcedTool {
  tool: AnyTool;
  source: ToolSource;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Throws when two sources share a name: every error names its source, so names must tell them apart. */
export function checkSourceNames(sources: readonly ToolSource[]): void {
  const seen = new Set<string>();
  for (const source of sources) {
    if (seen.has(source.name)) {
      throw new ToolSetError({
        reason: 'duplicate-source',
        source: source.name,
        message: `Two tool sources are named "${source.name}"; give each source of a tool set its own name.`,
      });
    }
    seen.add(source.name);
  }
}

/**
 * Loads every source (in parallel) and checks the tools' names, keeping the sources' order. A
 * source that fails to load, or offers a tool with a name providers would reject, is a
 * {@link ToolSetError} naming the source.
 */
export async function loadSources(sources: readonly ToolSource[], signal?: AbortSignal): Promise<SourcedTool[]> {
  checkSourceNames(sources);
  const settled = await Promise.allSettled(sources.map((source) => source.load(signal)));
  const entries: SourcedTool[] = [];
  for (const [index, outcome] of settled.entries()) {
    const source = sources[index]!;
    if (outcome.status === 'rejected') {
      throw new ToolSetError({
        reason: 'source-load-failed',
        source: source.name,
        message: `Tool source "${source.name}" failed to load its tools: ${errorMessage(outcome.reason)}. Fix the source or leave it out of the tool set.`,
        cause: outcome.reason,
      });
    }
    for (const tool of outcome.value) {
      const name = (tool as { name?: unknown }).name;
      if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
        throw new ToolSetError({
          reason: 'invalid-tool-name',
          source: source.name,
          tool: typeof name === 'string' ? name : undefined,
          message: `Tool source "${source.name}" offers a tool named ${JSON.stringify(name)}, which providers reject: tool names are 1-64 letters, digits, "_" or "-". Rename the tool in that source.`,
        });
      }
      entries.push({ tool, source });
    }
  }
  return entries;
}
