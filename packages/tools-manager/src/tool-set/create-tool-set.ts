import {
  type AnyTool,
  createToolSearchTool,
  errorResult,
  type ToolContext,
  type ToolResult,
  type ToolSource,
} from '@boxagnts/tools';
import { checkHookLocations } from '../hooks/check-hook-locations.js';
import { createPermissionEngine } from '../permissions/permission-engine.js';
import type { PermissionEngine, ToolHooks } from '../types.js';
import { closeToolNames } from './close-tool-names.js';
import { deferredToolNames } from './defer-tools.js';
import { guardTool } from './guard-tool.js';
import type { GuardServices } from './guarded-call.js';
import { loadSources, type SourcedTool } from './load-sources.js';
import { PlanModeSync } from './plan-mode-check.js';
import { RememberedAnswers } from './remembered-answers.js';
import { selectTools } from './select-tools.js';
import { ToolNameCollisionError, ToolSetError } from './tool-set-error.js';
import type { ToolSetEvent } from './tool-set-events.js';
import type { ToolSet, ToolSetOptions } from './tool-set-types.js';
import { TurnSequencer } from './turn-sequencer.js';

const TOOL_SEARCH_NAME = 'tool_search';
/** The name the tool set goes by as the owner of `tool_search` in collision errors. */
const TOOL_SET_SOURCE = 'tool-set';

interface Assembly {
  /** Inner tools by name, `tool_search` included when present. */
  inner: Map<string, AnyTool>;
  /** Guarded tools by name, in the order of `tools()` before deferred ones are loaded. */
  guarded: Map<string, AnyTool>;
  deferred: Set<string>;
  /** The source of each tool by name (`tool_search` has none: it is the tool set's own). */
  sources: Map<string, ToolSource>;
}

interface AssemblyReport {
  sources: Array<{ name: string; kind: string; tools: number }>;
  unmatchedNames: string[];
}

function isEngine(value: ToolSetOptions['permissions']): value is PermissionEngine {
  return typeof (value as PermissionEngine | undefined)?.evaluate === 'function';
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Assembles an agent's tool set: loads every source, rejects invalid and colliding names (naming
 * the sources), keeps what the access level and allow/deny lists admit, defers large MCP sets
 * behind `tool_search`, and guards every tool with plan mode, hooks and permission rules.
 *
 * @example
 * const toolSet = await createToolSet({
 *   sources: [nativeToolSource(), sandboxSource],
 *   access: 'full',
 *   permissions: { rules: { allow: ['bash(npm test:*)'], deny: ['bash(rm:*)'] } },
 *   ask: async (request) => ((await confirm(request.reason)) ? { behavior: 'allow' } : { behavior: 'deny' }),
 * });
 * const result = await toolSet.execute('read', { path: 'README.md' }, context);
 */
export async function createToolSet(options: ToolSetOptions): Promise<ToolSet> {
  const engine = isEngine(options.permissions)
    ? options.permissions
    : createPermissionEngine({
        ...(options.permissions?.rules === undefined ? {} : { rules: options.permissions.rules }),
        ...(options.permissions?.mode === undefined ? {} : { mode: options.permissions.mode }),
      });
  const hooks: ToolHooks = options.hooks ?? {};
  const roots = options.roots ?? [];
  checkHookLocations(hooks, roots);
  const selected = new Set<string>();
  let assembly: Assembly = { inner: new Map(), guarded: new Map(), deferred: new Set(), sources: new Map() };
  let closed = false;

  const emit = (event: ToolSetEvent): void => {
    if (event.type === 'hook-failure') {
      options.logger?.warn(`hook ${event.failure.hook} failed on ${event.failure.tool}: ${event.failure.message}`, {
        ...event.failure,
      });
    }
    try {
      options.onEvent?.(event);
    } catch (error) {
      options.logger?.error('onEvent threw', { event: event.type, error: errorMessage(error) });
    }
  };
  const isLoaded = (name: string): boolean =>
    assembly.inner.has(name) && (!assembly.deferred.has(name) || selected.has(name));
  const services: GuardServices = {
    engine,
    hooks,
    roots,
    remembered: new RememberedAnswers(engine),
    planSync: new PlanModeSync(engine),
    emit,
    ...(options.ask === undefined ? {} : { ask: options.ask }),
    ...((hooks.beforeTool?.length ?? 0) > 0 || options.ask !== undefined ? { sequencer: new TurnSequencer() } : {}),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  };

  const toolSet: ToolSet = {
    permissions: engine,
    setAsk: (handler) => {
      // As at creation: a handler (it waits on a person) or a before-tool hook orders a turn's checks;
      // without either, calls pay nothing for it.
      if (handler === undefined) {
        delete services.ask;
        if ((hooks.beforeTool?.length ?? 0) === 0) delete services.sequencer;
      } else {
        services.ask = handler;
        services.sequencer ??= new TurnSequencer();
      }
    },
    tools: () => {
      const loaded = [...assembly.guarded.values()].filter((tool) => !assembly.deferred.has(tool.name));
      const selectedTools = [...selected].flatMap((name) => {
        const tool = assembly.deferred.has(name) ? assembly.guarded.get(name) : undefined;
        return tool === undefined ? [] : [tool];
      });
      return [...loaded, ...selectedTools];
    },
    all: () => [...assembly.inner.values()],
    list: () => [...assembly.inner.values()],
    get: (name) => assembly.guarded.get(name),
    sourceOf: (name) => {
      const source = assembly.sources.get(name);
      if (source !== undefined) return { name: source.name, kind: source.kind };
      return assembly.inner.has(name) ? { name: TOOL_SET_SOURCE, kind: 'tool-set' } : undefined;
    },
    isLoaded,
    load: (names) => {
      const added: string[] = [];
      const loaded: string[] = [];
      for (const name of names) {
        if (!assembly.inner.has(name)) continue;
        if (assembly.deferred.has(name) && !selected.has(name)) {
          selected.add(name);
          added.push(name);
        }
        if (!loaded.includes(name)) loaded.push(name);
      }
      if (added.length > 0) emit({ type: 'tools-selected', names: added });
      return loaded;
    },
    execute: async (name: string, input: unknown, context: ToolContext): Promise<ToolResult> => {
      if (closed) return errorResult(`Tool "${name}" was not run: the tool set is closed.`);
      const tool = assembly.guarded.get(name);
      if (tool === undefined) return unknownToolResult(name);
      try {
        return await tool.execute(input, context);
      } catch (error) {
        return errorResult(`Tool "${name}" failed: ${errorMessage(error)}`);
      }
    },
    refresh: (signal?: AbortSignal) => reload(signal),
    close: async () => {
      if (closed) return;
      closed = true;
      await closeSources(options.sources);
    },
  };

  function unknownToolResult(name: string): ToolResult {
    const names = [...assembly.inner.keys()];
    const close = closeToolNames(name, names);
    const hint =
      close.length > 0
        ? ` Did you mean: ${close.map((candidate) => (isLoaded(candidate) ? candidate : `${candidate} (deferred: load it with tool_search "select:${candidate}")`)).join(', ')}?`
        : ` Available tools: ${toolSet
            .tools()
            .map((tool) => tool.name)
            .join(', ')}.`;
    return errorResult(`Unknown tool "${name}".${hint}`, { unknownTool: name, closeNames: close });
  }

  function assemble(loadedEntries: SourcedTool[]): Assembly & { report: AssemblyReport } {
    const { entries, unmatchedNames } = selectTools(loadedEntries, {
      access: options.access ?? 'full',
      ...(options.allow === undefined ? {} : { allow: options.allow }),
      ...(options.deny === undefined ? {} : { deny: options.deny }),
    });
    const deferred = deferredToolNames(entries, options.defer);
    const inner = new Map<string, AnyTool>(entries.map((entry) => [entry.tool.name, entry.tool]));
    if (deferred.size > 0) {
      const owner = entries.find((entry) => entry.tool.name === TOOL_SEARCH_NAME);
      if (owner !== undefined) throw new ToolNameCollisionError(TOOL_SEARCH_NAME, owner.source.name, TOOL_SET_SOURCE);
      inner.set(TOOL_SEARCH_NAME, createToolSearchTool(toolSet));
    }
    const guarded = new Map<string, AnyTool>();
    for (const [name, tool] of inner) guarded.set(name, guardTool(tool, services, isLoaded));
    if (unmatchedNames.length > 0) {
      options.logger?.warn(`allow/deny names that match no tool: ${unmatchedNames.join(', ')}`, { unmatchedNames });
    }
    const counts = options.sources.map((source) => ({
      name: source.name,
      kind: source.kind,
      tools: entries.filter((entry) => entry.source === source).length,
    }));
    const sources = new Map(entries.map((entry) => [entry.tool.name, entry.source]));
    return { inner, guarded, deferred, sources, report: { sources: counts, unmatchedNames } };
  }

  /** Loads the sources and swaps in the new assembly only once it is complete. */
  async function reload(signal?: AbortSignal): Promise<void> {
    const next = assemble(await loadSources(options.sources, signal));
    assembly = next;
    for (const name of selected) if (!next.deferred.has(name)) selected.delete(name);
    emit({
      type: 'tools-loaded',
      loaded: toolSet.tools().map((tool) => tool.name),
      deferred: [...next.deferred].filter((name) => !selected.has(name)),
      ...next.report,
    });
  }

  try {
    await reload();
  } catch (error) {
    await closeSources(options.sources).catch(() => {});
    throw error;
  }
  return toolSet;
}

/** Closes every source, all of them even when some fail, and reports the failures together. */
async function closeSources(sources: ToolSetOptions['sources']): Promise<void> {
  const settled = await Promise.allSettled(sources.map(async (source) => source.close?.()));
  const failures = settled.flatMap((outcome, index) =>
    outcome.status === 'rejected' ? [{ source: sources[index]!.name, error: outcome.reason as unknown }] : [],
  );
  if (failures.length === 0) return;
  throw new ToolSetError({
    reason: 'close-failed',
    source: failures[0]!.source,
    message: `Closing the tool set failed for ${failures.length === 1 ? 'source' : 'sources'} ${failures
      .map((failure) => `"${failure.source}" (${errorMessage(failure.error)})`)
      .join(', ')}.`,
    cause: new AggregateError(
      failures.map((failure) => failure.error),
      'tool source close failures',
    ),
  });
}
