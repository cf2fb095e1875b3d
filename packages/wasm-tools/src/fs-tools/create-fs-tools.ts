import type { AnyTool, ToolContext } from '@boxagnts/tools';
import {
  createPathPolicy,
  DEFAULT_PROTECTED_PATHS,
  DEFAULT_SECRET_PATHS,
  type PathPolicy,
} from '../policy/path-policy.js';
import { buildFsToolsComponent } from './build-fs-tools-component.js';
import { editToolSpec } from './edit-tool.js';
import type { FileToolSpec } from './file-tool-spec.js';
import { FsToolsError } from './fs-tools-error.js';
import { globToolSpec } from './glob-tool.js';
import { grepToolSpec } from './grep-tool.js';
import { readToolSpec } from './read-tool.js';
import { createSandboxedFileTool, type PolicyResolver } from './sandboxed-file-tool.js';
import { writeToolSpec } from './write-tool.js';

/** Where a function component comes from: a `.wasm` file or its bytes. */
export type FunctionComponentSource = { path: string } | { bytes: Uint8Array; name: string };

/** What the file tools need from a component runtime (the package's `createComponentRuntime` fits). */
export interface FunctionComponentLoader {
  loadFunctionComponent(
    source: FunctionComponentSource,
    options?: { protectedPaths?: readonly string[]; secretPaths?: readonly string[] },
  ): Promise<AnyTool[]>;
}

/** Options of {@link createFsTools}. */
export interface CreateFsToolsOptions {
  /** Runs the component's calls (child processes, per-call root, deadlines). */
  runtime: FunctionComponentLoader;
  /**
   * The path policy, fixing the root every call works in. Default: a policy per call made from
   * `context.root` with {@link CreateFsToolsOptions.protectedPaths}.
   */
  policy?: PathPolicy;
  /** Protected paths of the per-call policies (ignored when `policy` is given). Default: the policy's defaults. */
  protectedPaths?: readonly string[];
  /** The fs-tools component; default: built from the guest sources by {@link buildFsToolsComponent}. */
  component?: FunctionComponentSource;
  /** Cache folder for the default build. */
  cacheDir?: string;
}

/** The five file tools, in the order they are returned. */
export const FS_TOOL_SPECS: readonly FileToolSpec[] = [
  readToolSpec,
  writeToolSpec,
  editToolSpec,
  globToolSpec,
  grepToolSpec,
];

function policyResolver(options: CreateFsToolsOptions): PolicyResolver {
  const fixed = options.policy;
  if (fixed !== undefined) return () => fixed;
  const byRoot = new Map<string, PathPolicy>();
  return (context: ToolContext) => {
    const cached = byRoot.get(context.root);
    if (cached !== undefined) return cached;
    try {
      const policy = createPathPolicy({
        root: context.root,
        ...(options.protectedPaths === undefined ? {} : { protectedPaths: options.protectedPaths }),
      });
      byRoot.set(context.root, policy);
      return policy;
    } catch (error) {
      return { error: `The working folder cannot be used: ${(error as Error).message}` };
    }
  };
}

/**
 * Creates the sandboxed file tools `read`, `write`, `edit`, `glob` and `grep`: one WebAssembly
 * component run by `runtime`, behind one path policy that checks every path before the guest sees
 * it (protected paths, hard links and symlinks leading out are refused).
 *
 * @example
 * const runtime = createComponentRuntime();
 * const tools = await createFsTools({ runtime, policy: createPathPolicy({ root: '/home/me/project' }) });
 * const read = tools.find((tool) => tool.name === 'read');
 */
export async function createFsTools(options: CreateFsToolsOptions): Promise<AnyTool[]> {
  const component = options.component ?? { path: (await buildFsToolsComponent(options.cacheDir)).path };
  // The guest's own file operations are checked against the same patterns as the host's paths.
  const guestTools = await options.runtime.loadFunctionComponent(component, {
    protectedPaths: options.policy?.protectedPaths ?? options.protectedPaths ?? DEFAULT_PROTECTED_PATHS,
    secretPaths: options.policy?.secretPaths ?? DEFAULT_SECRET_PATHS,
  });
  const byName = new Map(guestTools.map((tool) => [tool.name, tool]));
  const resolvePolicy = policyResolver(options);
  return FS_TOOL_SPECS.map((spec) => {
    const guest = byName.get(spec.name);
    if (guest === undefined) {
      throw new FsToolsError(
        'component-mismatch',
        `The component has no "${spec.name}" tool (it offers ${[...byName.keys()].join(', ') || 'none'}): load the fs-tools component built by buildFsToolsComponent.`,
      );
    }
    return createSandboxedFileTool(spec, guest, resolvePolicy);
  });
}
