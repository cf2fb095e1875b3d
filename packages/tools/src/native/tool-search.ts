import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import type { AnyTool, Tool } from '../tool.js';
import { toolInputJsonSchema } from '../tool-definitions.js';
import { errorResult, textResult } from '../tool-results.js';
import { type RankableTool, rankTools } from './rank-tools.js';

/**
 * The tools `tool_search` searches and loads; tools-manager implements it. Deferred tools are
 * listed but not loaded until `select:` asks for them.
 */
export interface ToolSearchSource {
  /** Every tool of the run, loaded or deferred. */
  list(): readonly AnyTool[];
  isLoaded(name: string): boolean;
  /** Loads the named tools into the run; returns the names it loaded. */
  load(names: string[]): string[];
}

/** Bounds on `max_results` of `tool_search`. */
export const TOOL_SEARCH_MAX_RESULTS = { min: 1, max: 25, default: 5 } as const;

const DESCRIPTION_LENGTH = 160;
const SELECT_PREFIX = /^\s*select\s*:/i;

interface SearchableTool extends RankableTool {
  tool: AnyTool;
}

/** Property names of a JSON Schema, nested objects and array items included. */
function schemaPropertyNames(schema: unknown, depth = 0): string[] {
  if (depth > 4 || typeof schema !== 'object' || schema === null) return [];
  const node = schema as { properties?: unknown; items?: unknown };
  const names: string[] = [];
  if (typeof node.properties === 'object' && node.properties !== null) {
    for (const [name, child] of Object.entries(node.properties)) {
      names.push(name, ...schemaPropertyNames(child, depth + 1));
    }
  }
  if (node.items !== undefined) names.push(...schemaPropertyNames(node.items, depth + 1));
  return names;
}

function parameterNames(tool: AnyTool): string[] {
  try {
    return schemaPropertyNames(toolInputJsonSchema(tool));
  } catch {
    return [];
  }
}

function oneLine(description: string): string {
  const line = description.trim().split('\n')[0]?.trim() ?? '';
  return line.length > DESCRIPTION_LENGTH ? `${line.slice(0, DESCRIPTION_LENGTH - 1).trimEnd()}…` : line;
}

function parseNames(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    ),
  ];
}

function selectTools(source: ToolSearchSource, tools: readonly AnyTool[], requested: string[]) {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const byLowerName = new Map(tools.map((tool) => [tool.name.toLowerCase(), tool]));
  const unknown: string[] = [];
  const already: string[] = [];
  const toLoad: string[] = [];
  for (const name of requested) {
    const tool = byName.get(name) ?? byLowerName.get(name.toLowerCase());
    if (tool === undefined) unknown.push(name);
    else if (source.isLoaded(tool.name)) already.push(tool.name);
    else if (!toLoad.includes(tool.name)) toLoad.push(tool.name);
  }
  const loaded = toLoad.length > 0 ? source.load(toLoad) : [];
  const failed = toLoad.filter((name) => !loaded.includes(name));
  return { loaded, already, unknown, failed };
}

const toolSearchInput = z.object({
  query: z
    .string()
    .describe(
      'Keywords describing the tool you need (e.g. "github issue", "read pdf"), or "select:<name>[,<name>...]" to load tools by exact name so you can call them.',
    ),
  max_results: z
    .number()
    .int()
    .min(TOOL_SEARCH_MAX_RESULTS.min)
    .max(TOOL_SEARCH_MAX_RESULTS.max)
    .default(TOOL_SEARCH_MAX_RESULTS.default)
    .describe(
      `Most tools to list for a keyword search (${TOOL_SEARCH_MAX_RESULTS.min}-${TOOL_SEARCH_MAX_RESULTS.max}).`,
    ),
});

/**
 * Creates `tool_search`: finds tools of the run by keywords (names, descriptions, parameter names)
 * and loads deferred ones with `select:<name>,...`, so large tool sets (MCP servers) stay out of
 * the prompt until the model needs them.
 *
 * @example
 * const toolSearch = createToolSearchTool({ list: () => tools, isLoaded, load });
 * await executeTool(toolSearch, { query: 'select:mcp__github__create_issue' }, context);
 */
export function createToolSearchTool(source: ToolSearchSource): Tool<typeof toolSearchInput> {
  const name = 'tool_search';
  return defineTool({
    name,
    description: [
      'Search the tools available to this run, including deferred ones that are not loaded yet (such as MCP server tools), by keywords matched against tool names, descriptions and parameter names.',
      'A deferred tool cannot be called until it is loaded: load it with query "select:<name>" (several: "select:a,b").',
      'Use it when no loaded tool fits the task; do not use it to look up tools you already have.',
    ].join(' '),
    inputSchema: toolSearchInput,
    permission: 'read-only',
    execute: async ({ query, max_results }) => {
      const tools = source.list().filter((tool) => tool.name !== name);
      if (SELECT_PREFIX.test(query)) {
        const requested = parseNames(query.replace(SELECT_PREFIX, ''));
        if (requested.length === 0) {
          return errorResult('Name the tools to load after "select:", e.g. "select:mcp__github__create_issue".');
        }
        const { loaded, already, unknown, failed } = selectTools(source, tools, requested);
        const lines = [
          ...(loaded.length > 0 ? [`Loaded: ${loaded.join(', ')}. You can call them now.`] : []),
          ...(already.length > 0 ? [`Already loaded: ${already.join(', ')}.`] : []),
          ...(failed.length > 0 ? [`Could not load: ${failed.join(', ')}.`] : []),
          ...(unknown.length > 0
            ? [`Unknown: ${unknown.join(', ')}. Search by keywords to find the exact names.`]
            : []),
        ];
        const metadata = { loaded, alreadyLoaded: already, unknown, failed };
        return loaded.length + already.length === 0
          ? errorResult(lines.join('\n'), metadata)
          : textResult(lines.join('\n'), metadata);
      }
      const searchable: SearchableTool[] = tools.map((tool) => ({
        tool,
        name: tool.name,
        description: tool.description,
        parameters: parameterNames(tool),
      }));
      const ranked = rankTools(searchable, query);
      if (!ranked.ok) return errorResult(ranked.error);
      if (ranked.matches.length === 0) {
        return textResult(
          `No tools match "${query.trim()}" among ${tools.length} tools. Try other or fewer keywords.`,
          { matches: [], total: 0 },
        );
      }
      const shown = ranked.matches.slice(0, max_results);
      const lines = shown.map(({ tool }) => {
        const state = source.isLoaded(tool.name) ? 'loaded' : 'not loaded';
        return `- ${tool.name} (${state}): ${oneLine(tool.description)}`;
      });
      const more = ranked.matches.length - shown.length;
      const header = `${ranked.matches.length} ${ranked.matches.length === 1 ? 'tool matches' : 'tools match'} "${query.trim()}"${more > 0 ? ` (showing ${shown.length})` : ''}:`;
      const footer = shown.some(({ tool }) => !source.isLoaded(tool.name))
        ? '\nLoad a tool that is not loaded with "select:<name>" before calling it.'
        : '';
      return textResult(`${header}\n${lines.join('\n')}${footer}`, {
        matches: shown.map(({ tool, score }) => ({ name: tool.name, score, loaded: source.isLoaded(tool.name) })),
        total: ranked.matches.length,
      });
    },
  });
}
