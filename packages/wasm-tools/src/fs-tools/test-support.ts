// Shared setup of the fs-tools tests: the real component (built once, cached on disk), the real
// component runtime (child processes), real temp folders.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type AnyTool, executeTool, type ToolContext, type ToolResult } from '@boxagnts/tools';
import { createComponentRuntime } from '../runtime/component-runtime.js';
import { buildFsToolsComponent } from './build-fs-tools-component.js';
import { type CreateFsToolsOptions, createFsTools } from './create-fs-tools.js';

/** A runtime and the five tools made from the real component. */
export interface FsToolsFixture {
  tools: Map<string, AnyTool>;
  runtime: ReturnType<typeof createComponentRuntime>;
  componentPath: string;
  close(): Promise<void>;
}

/** Builds (or reuses) the component, starts a runtime and creates the tools with per-context policies. */
export async function startFsTools(options: Partial<CreateFsToolsOptions> = {}): Promise<FsToolsFixture> {
  const built = await buildFsToolsComponent();
  const runtime = createComponentRuntime();
  const list = await createFsTools({ runtime, component: { path: built.path }, ...options });
  return {
    tools: new Map(list.map((tool) => [tool.name, tool])),
    runtime,
    componentPath: built.path,
    close: async () => {
      await runtime.close();
    },
  };
}

/** A fresh real-pathed temp folder with the given files (paths relative to it; parents made). */
export async function makeTempRoot(
  files: Record<string, string | Uint8Array> = {},
  prefix = 'boxagnts-fs-',
): Promise<string> {
  const root = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  await writeFiles(root, files);
  return root;
}

/** Writes files under `root`, making parent folders. */
export async function writeFiles(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

/** Removes a temp folder. */
export function removeTempRoot(root: string): Promise<void> {
  return rm(root, { recursive: true, force: true });
}

/** A tool context for `root`. */
export function contextFor(root: string): ToolContext {
  return {
    root,
    signal: new AbortController().signal,
    sessionId: 'session-fs',
    turnId: 'turn-1',
    toolCallId: 'call-fs-1',
  };
}

/** Calls a tool the way the loop does (input validated by its zod schema first). */
export function callTool(fixture: FsToolsFixture, name: string, input: unknown, root: string): Promise<ToolResult> {
  const tool = fixture.tools.get(name);
  if (tool === undefined) throw new Error(`No tool "${name}" in the fixture.`);
  return executeTool(tool, input, contextFor(root));
}

/** The text of a result. */
export function textOf(result: ToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}
