import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { AnyTool } from '@boxagnts/tools';
import { knownBoxAgntsManifest } from './boxagnts-tools.js';
import { manifestCandidates } from './command-manifest.js';
import type { ComponentKind } from './transpile-cache.js';

/** The loaders a tools folder uses (the runtime's own). */
export interface ToolsFolderLoaders {
  /** What a component exports (transpiling it, or reading the cache). */
  kindOf(path: string): Promise<ComponentKind>;
  loadFunctionComponent(source: { path: string }): Promise<AnyTool[]>;
  loadCommandTool(wasmPath: string): Promise<AnyTool>;
}

/** The tools of a folder, the problems met, and the file each tool came from. */
export interface ToolsFolderResult {
  tools: AnyTool[];
  warnings: string[];
  /** Tool name -> the `.wasm` file it was loaded from. */
  files: Record<string, string>;
}

/**
 * Loads every `*.wasm` in `dir` (not recursive, sorted by name): a `.wasm` with a manifest beside
 * it (`tool.wasm.json` or `tool.json`) is a command tool; without one, a function component is
 * loaded through its `describe()`, one of BoxAgnts' own command components by its file name, and
 * any other command component is a warning that shows the manifest to write.
 * A component that fails to load, and a tool name seen twice, become warnings naming the file;
 * a missing folder gives no tools and no warnings.
 */
export async function loadToolsFolder(dir: string, loaders: ToolsFolderLoaders): Promise<ToolsFolderResult> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.wasm')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { tools: [], warnings: [], files: {} };
    throw error;
  }
  const all = new Set(await readdir(dir));
  const tools: AnyTool[] = [];
  const warnings: string[] = [];
  const seen = new Map<string, string>();
  for (const name of names) {
    const path = join(dir, name);
    const hasManifest = manifestCandidates(path).some((candidate) => all.has(basename(candidate)));
    try {
      const asCommand =
        hasManifest || knownBoxAgntsManifest(path) !== undefined || (await loaders.kindOf(path)) !== 'function';
      const loaded = asCommand ? [await loaders.loadCommandTool(path)] : await loaders.loadFunctionComponent({ path });
      for (const tool of loaded) {
        const previous = seen.get(tool.name);
        if (previous !== undefined) {
          warnings.push(`${path}: tool "${tool.name}" is also defined by ${previous}; kept the first.`);
          continue;
        }
        seen.set(tool.name, path);
        tools.push(tool);
      }
    } catch (error) {
      const message = (error as Error).message;
      warnings.push(message.startsWith(path) ? message : `${path}: ${message}`);
    }
  }
  return { tools, warnings, files: Object.fromEntries(seen) };
}
