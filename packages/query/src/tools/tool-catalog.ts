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

/** What a catalog builds from a list of tools; never written once built, so catalogs can share it. */
interface BuiltTools {
  tools: readonly AnyTool[];
  map: Map<string, AnyTool>;
  definitions: ToolDefinition[];
  names: string[];
}

/**
 * The last list built per first tool: a host mostly passes each run a fresh array of the same tools,
 * and sharing the map and arrays saves every run about 0.3 KiB. Keyed weakly, so a dropped tool set is
 * not kept alive by this.
 */
const builtByFirstTool = new WeakMap<AnyTool, BuiltTools>();

function sameTools(a: readonly AnyTool[], b: readonly AnyTool[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

function buildTools(tools: readonly AnyTool[]): BuiltTools {
  const first = tools[0];
  const known = first === undefined ? undefined : builtByFirstTool.get(first);
  if (known !== undefined && sameTools(known.tools, tools)) return known;
  const built: BuiltTools = {
    tools: [...tools],
    map: new Map(tools.map((tool) => [tool.name, tool])),
    definitions: tools.map(definitionOf),
    names: tools.map((tool) => tool.name),
  };
  if (first !== undefined) builtByFirstTool.set(first, built);
  return built;
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
    const built = buildTools(tools);
    this.map = built.map;
    this.definitions = built.definitions;
    this.names = built.names;
    return true;
  }
}
