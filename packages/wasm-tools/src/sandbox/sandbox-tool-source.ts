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
  /** Reports third-party components that could not be loaded (default: ignored). */
  onWarning?: (message: string) => void;
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
        tools.push(...loaded.tools);
      }
      return tools;
    },
    async close() {
      await owned?.close();
      owned = undefined;
    },
  };
}
