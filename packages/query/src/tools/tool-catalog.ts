import type { ToolDefinition } from '@boxagnts/api';
import { type AnyTool, toToolDefinition } from '@boxagnts/tools';
import { toolsForAgent } from '../agents.js';
import type { AgentDefinition } from '../config.js';
import { managerTools } from '../subagents/managed-mode.js';

/** The tools an agent admits, recomputed only when the list changes. */
function cachedFilter(all: () => readonly AnyTool[], agent: AgentDefinition): () => readonly AnyTool[] {
  let source: readonly AnyTool[] | undefined;
  let filtered: readonly AnyTool[] = [];
  return () => {
    const tools = all();
    if (tools !== source) {
      source = tools;
      filtered = toolsForAgent(tools, agent);
    }
    return filtered;
  };
}

// A tool's JSON Schema never changes: convert it once per tool object, not once per run.
const definitionCache = new WeakMap<AnyTool, ToolDefinition>();
function definitionOf(tool: AnyTool): ToolDefinition {
  let definition = definitionCache.get(tool);
  if (definition === undefined) {
    definition = toToolDefinition(tool);
    definitionCache.set(tool, definition);
  }
  return definition;
}

// Shared, never written: a catalog's map is replaced, not filled, when its tools change.
const EMPTY_TOOL_MAP = new Map<string, AnyTool>();
export const NO_TOOLS: readonly AnyTool[] = Object.freeze([]);
/**
 * The tools a run offers: the list itself when nothing filters it (no getter to call per turn),
 * else a getter through the agent's filter and managed mode.
 */
export function toolSource(
  given: readonly AnyTool[] | (() => readonly AnyTool[]),
  agent: AgentDefinition | undefined,
  managed: boolean,
): readonly AnyTool[] | (() => readonly AnyTool[]) {
  if ((agent === undefined || agent.access === 'full') && !managed) return given;
  const all = typeof given === 'function' ? given : () => given;
  const filtered = agent === undefined || agent.access === 'full' ? all : cachedFilter(all, agent);
  return managed ? managerTools(filtered) : filtered;
}

/** The tools as a map and as request definitions, rebuilt only when the list changes. */
export class ToolCatalog {
  private source: readonly AnyTool[] | undefined;
  map: Map<string, AnyTool> = EMPTY_TOOL_MAP;
  definitions: ToolDefinition[] = [];
  names: string[] = [];

  constructor(private readonly tools: readonly AnyTool[] | (() => readonly AnyTool[])) {}

  refresh(): boolean {
    const tools = typeof this.tools === 'function' ? this.tools() : this.tools;
    if (tools === this.source && tools.length === this.map.size) return false;
    this.source = tools;
    this.map = new Map(tools.map((tool) => [tool.name, tool]));
    this.definitions = tools.map(definitionOf);
    this.names = tools.map((tool) => tool.name);
    return true;
  }
}
