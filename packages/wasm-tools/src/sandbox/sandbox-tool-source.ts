import type { AnyTool, ToolSource } from '@boxagnts/tools';
import { type BashToolOptions, createBashTool } from '../bash/bash-tool.js';
import { type CreateFsToolsOptions, createFsTools } from '../fs-tools/create-fs-tools.js';
import { createJsExecTool, type JsExecToolOptions } from '../js-exec/js-exec-tool.js';
import type { PathPolicy } from '../policy/path-policy.js';
import {
  type ComponentRuntime,
  type ComponentRuntimeOptions,
  createComponentRuntime,
} from '../runtime/component-runtime.js';
import { ComponentRuntimeError } from '../runtime/component-runtime-error.js';
import type { EnvGrant } from '../runtime/env-grant.js';
import { createWebFetchTool, type WebFetchToolOptions } from '../web-fetch/web-fetch-tool.js';

/** What the sandbox offers; each built-in can be configured or left out with `false`. */
export interface SandboxToolSourceOptions {
  /** A runtime to share; default: one created (and closed) by this source. */
  runtime?: ComponentRuntime;
  runtimeOptions?: ComponentRuntimeOptions;
  /** A fixed path policy for the file tools; default: one per call from the context's root. */
  policy?: PathPolicy;
  /**
   * Protected paths of the per-call policies (file tools, bash and the `toolsFolder` components).
   * Default: the path policy's, which include the instruction files (`DEFAULT_INSTRUCTION_PATHS`).
   */
  protectedPaths?: readonly string[];
  /** The file tools (read, write, edit, glob, grep); `false` leaves them out. */
  files?: Omit<CreateFsToolsOptions, 'runtime' | 'policy' | 'protectedPaths'> | false;
  bash?: BashToolOptions | false;
  jsExec?: JsExecToolOptions | false;
  webFetch?: WebFetchToolOptions | false;
  /** A workspace's `tools/` folder of third-party components, loaded as ordinary tools. */
  toolsFolder?: string;
  /**
   * Host environment variables the user grants to the `toolsFolder` components (per tool name, or
   * one list for all); a tool gets the granted ones it also declares. Default: none.
   */
  toolsEnv?: EnvGrant;
  /**
   * What happens when a `toolsFolder` component offers a tool with the name of a built-in (BoxAgnts'
   * own components are `read`, `write`, `edit` and `glob`):
   * - `'error'` (default): loading fails with an error naming the built-in and the component's file;
   * - `'replace'`: the component's tool replaces the built-in of that name, on purpose;
   * - `{ prefix }`: the component's tool is offered as `<prefix><name>` beside the built-in.
   */
  toolsFolderCollisions?: ToolsFolderCollisions;
  /** Reports third-party components that could not be loaded (default: ignored). */
  onWarning?: (message: string) => void;
}

/** See {@link SandboxToolSourceOptions.toolsFolderCollisions}. */
export type ToolsFolderCollisions = 'error' | 'replace' | { prefix: string };

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Merges the folder's tools into the built-ins by the collision setting. */
function mergeFolderTools(
  builtins: AnyTool[],
  folder: { tools: AnyTool[]; files: Record<string, string> },
  collisions: ToolsFolderCollisions,
): AnyTool[] {
  const builtinNames = new Set(builtins.map((tool) => tool.name));
  const clashing = folder.tools.filter((tool) => builtinNames.has(tool.name));
  if (clashing.length === 0) return [...builtins, ...folder.tools];
  if (collisions === 'replace') {
    const replaced = new Set(clashing.map((tool) => tool.name));
    return [...builtins.filter((tool) => !replaced.has(tool.name)), ...folder.tools];
  }
  if (typeof collisions === 'object') {
    const renamed = folder.tools.map((tool) => {
      if (!builtinNames.has(tool.name)) return tool;
      const name = `${collisions.prefix}${tool.name}`;
      if (!TOOL_NAME.test(name) || builtinNames.has(name)) {
        throw new ComponentRuntimeError(
          'invalid-options',
          `toolsFolderCollisions.prefix ${JSON.stringify(collisions.prefix)} makes "${name}" from ${folder.files[tool.name]}, which is not a free tool name (1-64 letters, digits, "_" or "-"); pick another prefix.`,
        );
      }
      return { ...tool, name };
    });
    return [...builtins, ...renamed];
  }
  const lines = clashing.map(
    (tool) =>
      `"${tool.name}" is offered by both the sandbox's built-in tools and the tools folder component ${folder.files[tool.name]}`,
  );
  throw new ComponentRuntimeError(
    'invalid-options',
    `${lines.join('; ')}. Set toolsFolderCollisions: "replace" to use the components instead of the built-ins, or toolsFolderCollisions: { prefix: "component_" } to offer them under other names, or leave the built-ins out (files: false).`,
  );
}

/**
 * The sandboxed built-in tools as one tool source for tools-manager: `read`, `write`, `edit`,
 * `glob`, `grep` (a WebAssembly component in child processes), `bash` (a simulated shell confined to
 * the root), `js_exec` (JavaScript in QuickJS), `web_fetch` (host-side, allowlisted), plus
 * third-party components from a `tools/` folder.
 *
 * @example
 * const toolSet = await createToolSet({ sources: [nativeToolSource(), createSandboxToolSource()] });
 */
export function createSandboxToolSource(options: SandboxToolSourceOptions = {}): ToolSource & {
  readonly runtime: ComponentRuntime;
} {
  let owned: ComponentRuntime | undefined;
  const runtime = () => {
    if (options.runtime) return options.runtime;
    owned ??= createComponentRuntime(options.runtimeOptions);
    return owned;
  };
  return {
    name: 'sandbox',
    kind: 'sandbox',
    get runtime() {
      return runtime();
    },
    async load() {
      const tools: AnyTool[] = [];
      if (options.files !== false) {
        tools.push(
          ...(await createFsTools({
            ...(options.files ?? {}),
            runtime: runtime(),
            ...(options.policy ? { policy: options.policy } : {}),
            ...(options.protectedPaths ? { protectedPaths: options.protectedPaths } : {}),
          })),
        );
      }
      if (options.bash !== false) {
        tools.push(
          createBashTool({
            ...(options.protectedPaths && (options.bash?.mode ?? 'simulated') === 'simulated'
              ? { protectedPaths: options.protectedPaths }
              : {}),
            ...(options.bash ?? {}),
          }),
        );
      }
      if (options.jsExec !== false) tools.push(createJsExecTool(options.jsExec ?? {}));
      if (options.webFetch !== false) tools.push(createWebFetchTool(options.webFetch ?? {}));
      if (options.toolsFolder !== undefined) {
        const loaded = await runtime().loadToolsFolder(options.toolsFolder, {
          ...(options.toolsEnv === undefined ? {} : { grantEnv: options.toolsEnv }),
          ...(options.protectedPaths === undefined ? {} : { protectedPaths: options.protectedPaths }),
          ...(options.policy === undefined
            ? {}
            : { protectedPaths: options.policy.protectedPaths, secretPaths: options.policy.secretPaths }),
        });
        for (const warning of loaded.warnings) options.onWarning?.(warning);
        return mergeFolderTools(tools, loaded, options.toolsFolderCollisions ?? 'error');
      }
      return tools;
    },
    async close() {
      await owned?.close();
      owned = undefined;
    },
  };
}
