import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AnyTool, ToolLogger } from '@boxagnts/tools';
import { PluginLoadError } from './plugin-load-error.js';
import type { PluginApi } from './plugin-types.js';
import { describeToolName, describeToolProblems } from './validate-plugin-tool.js';

/** Who is registering: used to build the API and to name the plugin in errors. */
export interface PluginRegistrarOptions {
  specifier: string;
  pluginName: string;
  pluginRoot: string;
  options: Record<string, unknown>;
  logger?: ToolLogger;
}

/** The API handed to setup, and how the loader closes it and collects what was registered. */
export interface PluginRegistrar {
  readonly api: PluginApi;
  /**
   * Closes registration (later calls throw) and returns what was registered; throws the first
   * registration error, even one that setup caught and swallowed.
   */
  finish(): { tools: AnyTool[]; skillFolders: string[] };
}

const SILENT_LOGGER: ToolLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** The host's logger with `{ plugin: name }` added to every line. */
function pluginLogger(logger: ToolLogger | undefined, pluginName: string): ToolLogger {
  if (logger === undefined) return SILENT_LOGGER;
  const tag = (data?: Record<string, unknown>) => ({ plugin: pluginName, ...data });
  return {
    debug: (message, data) => logger.debug(message, tag(data)),
    info: (message, data) => logger.info(message, tag(data)),
    warn: (message, data) => logger.warn(message, tag(data)),
    error: (message, data) => logger.error(message, tag(data)),
  };
}

/**
 * Builds the {@link PluginApi} for one setup run: tools are checked as they are registered (so the
 * error points at the plugin's own call), duplicates are refused, skill folders must exist, and
 * nothing can be registered once setup has finished.
 */
export function createPluginRegistrar(context: PluginRegistrarOptions): PluginRegistrar {
  const { specifier, pluginName, pluginRoot } = context;
  const tools = new Map<string, AnyTool>();
  const skillFolders: string[] = [];
  let finished = false;
  let firstError: PluginLoadError | undefined;

  const fail = (error: PluginLoadError): never => {
    firstError ??= error;
    throw error;
  };
  const refuseWhenFinished = (what: string) => {
    if (!finished) return;
    throw new PluginLoadError({
      reason: 'setup-failed',
      specifier,
      pluginName,
      message: `Plugin "${pluginName}" tried to register ${what} after its setup had finished; register everything inside setup (await async work before setup returns).`,
    });
  };

  const registerTool = (tool: AnyTool) => {
    refuseWhenFinished(`tool "${describeToolName(tool)}"`);
    const problems = describeToolProblems(tool);
    if (problems.length > 0) {
      fail(
        new PluginLoadError({
          reason: 'invalid-tool',
          specifier,
          pluginName,
          toolName: describeToolName(tool),
          message: `Plugin "${pluginName}" registered an invalid tool "${describeToolName(tool)}": ${problems.join('; ')}. Fix the definition (defineTool from @boxagnts/tools checks it where you create it).`,
        }),
      );
    }
    if (tools.has(tool.name)) {
      fail(
        new PluginLoadError({
          reason: 'duplicate-tool',
          specifier,
          pluginName,
          toolName: tool.name,
          message: `Plugin "${pluginName}" registered two tools named "${tool.name}"; tool names must be unique, rename one.`,
        }),
      );
    }
    tools.set(tool.name, tool);
  };

  const registerSkillFolder = (path: string) => {
    refuseWhenFinished(`skill folder "${String(path)}"`);
    const invalid = (problem: string) =>
      fail(
        new PluginLoadError({
          reason: 'invalid-tool',
          specifier,
          pluginName,
          ...(typeof path === 'string' ? { path: resolve(pluginRoot, path) } : {}),
          message: `Plugin "${pluginName}" registered skill folder ${JSON.stringify(path)}, which ${problem}; pass a folder of skills, absolute or relative to ${pluginRoot}.`,
        }),
      );
    if (typeof path !== 'string' || path === '') return invalid('is not a path');
    const folder = resolve(pluginRoot, path);
    let isDirectory = false;
    try {
      isDirectory = statSync(folder).isDirectory();
    } catch {
      return invalid(`does not exist (${folder})`);
    }
    if (!isDirectory) return invalid(`is not a folder (${folder})`);
    if (!skillFolders.includes(folder)) skillFolders.push(folder);
  };

  const api: PluginApi = {
    pluginName,
    pluginRoot,
    options: Object.freeze({ ...context.options }),
    logger: pluginLogger(context.logger, pluginName),
    registerTool,
    registerTools: (list) => {
      if (!Array.isArray(list)) {
        fail(
          new PluginLoadError({
            reason: 'invalid-tool',
            specifier,
            pluginName,
            message: `Plugin "${pluginName}" called registerTools with ${typeof list}; pass an array of tools.`,
          }),
        );
      }
      for (const tool of list) registerTool(tool);
    },
    registerSkillFolder,
  };

  return {
    api: Object.freeze(api),
    finish() {
      finished = true;
      if (firstError !== undefined) throw firstError;
      return { tools: [...tools.values()], skillFolders: [...skillFolders] };
    },
  };
}
