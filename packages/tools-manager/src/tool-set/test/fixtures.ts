import type { JsonObject } from '@boxagnts/api';
import {
  type AnyTool,
  defineTool,
  type RunMode,
  type ToolContext,
  type ToolPermission,
  type ToolSource,
  textResult,
} from '@boxagnts/tools';
import { z } from 'zod';

/** A tool context for tool-set tests; override what a test needs. */
export function testContext(root: string, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    root,
    signal: new AbortController().signal,
    sessionId: 'session-1',
    turnId: 'turn-1',
    toolCallId: 'call-1',
    ...overrides,
  };
}

/** A run mode held in memory, as a host would give it. */
export function memoryMode(initial: 'default' | 'plan' = 'default'): RunMode {
  let mode = initial;
  return {
    get: () => mode,
    set: (next) => {
      mode = next;
    },
  };
}

/** A record of the calls tools actually ran. */
export type CallLog = Array<{ tool: string; input: JsonObject }>;

const SCHEMAS = {
  'read-only': z.object({ path: z.string() }),
  write: z.object({ path: z.string(), content: z.string().default('') }),
  execute: z.object({ command: z.string() }),
  network: z.object({ url: z.string() }),
} as const;

/** A real tool (defineTool) that logs its calls and answers with its name and input. */
export function recordingTool(
  name: string,
  permission: ToolPermission,
  log: CallLog,
  extra: Partial<Pick<AnyTool, 'deferred' | 'description' | 'timeoutMs'>> = {},
): AnyTool {
  return defineTool({
    name,
    description: extra.description ?? `The ${name} tool (${permission}).`,
    inputSchema: SCHEMAS[permission] as z.ZodObject,
    permission,
    ...(extra.deferred === undefined ? {} : { deferred: extra.deferred }),
    ...(extra.timeoutMs === undefined ? {} : { timeoutMs: extra.timeoutMs }),
    execute: async (input: JsonObject) => {
      log.push({ tool: name, input });
      return textResult(`${name} ran with ${JSON.stringify(input)}`);
    },
  });
}

/** The usual four: read, write, bash, web_fetch. */
export function standardTools(log: CallLog): AnyTool[] {
  return [
    recordingTool('read', 'read-only', log),
    recordingTool('write', 'write', log),
    recordingTool('bash', 'execute', log),
    recordingTool('web_fetch', 'network', log),
  ];
}

/** A tool source over fixed tools that counts its loads and closes. */
export function testSource(
  name: string,
  tools: readonly AnyTool[] | (() => readonly AnyTool[]),
  kind: ToolSource['kind'] = 'custom',
  close?: () => Promise<void>,
): ToolSource & { loads: number; closes: number } {
  const source = {
    name,
    kind,
    loads: 0,
    closes: 0,
    load: async () => {
      source.loads += 1;
      return typeof tools === 'function' ? tools() : tools;
    },
    close: async () => {
      source.closes += 1;
      await close?.();
    },
  };
  return source;
}
