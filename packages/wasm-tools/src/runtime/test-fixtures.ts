import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolContext } from '@boxagnts/tools';
import { type BuiltComponent, buildJsComponent } from './componentize.js';

/** This package's folder (two levels above src/runtime). */
export const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));
/** The package's WIT folder. */
export const WIT_DIR = join(PACKAGE_DIR, 'wit');

/** Builds (or reuses from the cache) a fixture from test-components/. */
export function buildFixture(name: string, world: 'function-tool' | 'command-tool'): Promise<BuiltComponent> {
  return buildJsComponent({ sourcePath: join(PACKAGE_DIR, 'test-components', `${name}.js`), witPath: WIT_DIR, world });
}

/** A fresh temp folder and a function that removes it. */
export async function tempDir(prefix: string): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `boxagnts-${prefix}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** A minimal ToolContext rooted at `root`. */
export function toolContext(root: string, signal: AbortSignal = new AbortController().signal): ToolContext {
  return { root, signal, sessionId: 'session', turnId: 'turn', toolCallId: 'call' };
}
