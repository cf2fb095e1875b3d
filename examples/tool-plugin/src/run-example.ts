import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AnyTool, executeTool, resultText, type ToolContext, type ToolResult } from '@boxagnts/tools';
import { type LoadedPlugin, loadPlugin } from '@boxagnts/tools-manager';

/** This example's folder: the package name is resolved from here, as a host resolves it from its own. */
export const EXAMPLE_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The package name the host loads; nothing is imported from the plugin's files directly. */
export const PLUGIN_PACKAGE = '@boxagnts/example-tool-plugin';

/** What one run of the example produced. */
export interface ExampleRun {
  plugin: LoadedPlugin;
  wordCount: ToolResult;
  slug: ToolResult;
}

/** A tool context for a host without a session: the example's folder as root, a signal that never fires. */
export function exampleContext(): ToolContext {
  return {
    root: EXAMPLE_ROOT,
    signal: new AbortController().signal,
    sessionId: 'example-session',
    turnId: 'turn-1',
    toolCallId: 'call_example_1',
  };
}

/** One of the plugin's tools by name (the host only knows names, not the plugin's files). */
export function pluginTool(plugin: LoadedPlugin, name: string): AnyTool {
  const tool = plugin.tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`Plugin "${plugin.name}" registered no tool "${name}".`);
  return tool;
}

/**
 * Loads the plugin by package name with a plugin option, runs both of its tools through
 * `executeTool` (validation, error results) and prints what they answered.
 */
export async function runExample(print: (line: string) => void): Promise<ExampleRun> {
  const plugin = await loadPlugin(PLUGIN_PACKAGE, { from: EXAMPLE_ROOT, options: { maxInputLength: 2_000 } });
  print(`loaded plugin "${plugin.name}" with tools: ${plugin.tools.map((tool) => tool.name).join(', ')}`);
  const text = 'Plugins keep hosts small.\nTools come from packages.\n';
  const wordCount = await executeTool(pluginTool(plugin, 'word_count'), { text }, exampleContext());
  print(`word_count -> ${resultText(wordCount)}`);
  const slug = await executeTool(
    pluginTool(plugin, 'slugify'),
    { text: 'Écrire des Plugins, pas à pas!' },
    exampleContext(),
  );
  print(`slugify -> ${resultText(slug)}`);
  return { plugin, wordCount, slug };
}
