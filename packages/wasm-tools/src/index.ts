// The public surface of @boxagnts/wasm-tools. Explicit named exports only.
export {
  BASH_DEFAULT_MAX_MEMORY_BYTES,
  BASH_DEFAULT_TIMEOUT_MS,
  BASH_MAX_OUTPUT_BYTES,
  BASH_MAX_TIMEOUT_MS,
  BashToolConfigError,
  type BashToolOptions,
  createBashTool,
} from './bash/bash-tool.js';
export type { BashNetworkAccess } from './bash/network-config.js';
export { buildFsToolsComponent, bundleFsToolsGuest } from './fs-tools/build-fs-tools-component.js';
export {
  type CreateFsToolsOptions,
  createFsTools,
  FS_TOOL_SPECS,
  type FunctionComponentLoader,
  type FunctionComponentSource,
} from './fs-tools/create-fs-tools.js';
export { editInputSchema, editToolSpec } from './fs-tools/edit-tool.js';
export type { FileToolPathField, FileToolSpec } from './fs-tools/file-tool-spec.js';
export { FsToolsError, type FsToolsErrorReason, isFsToolsError } from './fs-tools/fs-tools-error.js';
export { globInputSchema, globToolSpec } from './fs-tools/glob-tool.js';
export { grepInputSchema, grepToolSpec } from './fs-tools/grep-tool.js';
export { readInputSchema, readToolSpec } from './fs-tools/read-tool.js';
export { writeInputSchema, writeToolSpec } from './fs-tools/write-tool.js';
export {
  createJsExecTool,
  JS_EXEC_DEFAULT_MAX_OUTPUT_BYTES,
  JS_EXEC_DEFAULT_MAX_STACK_BYTES,
  JS_EXEC_DEFAULT_MEMORY_LIMIT_BYTES,
  JS_EXEC_DEFAULT_TIMEOUT_MS,
  JS_EXEC_MAX_CODE_LENGTH,
  JsExecConfigError,
  type JsExecToolOptions,
} from './js-exec/js-exec-tool.js';
export {
  checkPath,
  checkPathSync,
  createPathPolicy,
  DEFAULT_INSTRUCTION_PATHS,
  DEFAULT_PROTECTED_PATHS,
  DEFAULT_SECRET_PATHS,
  isPathPolicyError,
  MAX_PATH_LENGTH,
  type PathPolicy,
  PathPolicyError,
  type PathPolicyErrorReason,
  toGuestPath,
} from './policy/path-policy.js';
export type { PathAccess, PathCheck, PathPolicyOptions, PathRefusal, ResolvedPath } from './policy/types.js';
export { defaultCacheDir } from './runtime/cache-dir.js';
export {
  CACHE_MAX_AGE_MS,
  type PruneCacheOptions,
  type PruneCacheReport,
  pruneComponentCache,
} from './runtime/cache-prune.js';
export { type CommandManifest, commandManifestSchema, parseCommandManifest } from './runtime/command-manifest.js';
export {
  type ComponentHttpHandler,
  type ComponentHttpHandlerOptions,
  createComponentHttpHandler,
} from './runtime/component-http-handler.js';
export {
  type ComponentCall,
  type ComponentRuntime,
  type ComponentRuntimeOptions,
  type ComponentRuntimeStats,
  type ComponentSource,
  createComponentRuntime,
  getDefaultRuntime,
  type LoadCommandToolOptions,
  type LoadFunctionComponentOptions,
  type LoadToolsFolderOptions,
  type PreparedComponent,
} from './runtime/component-runtime.js';
export {
  ComponentRuntimeError,
  type ComponentRuntimeErrorReason,
  isComponentRuntimeError,
} from './runtime/component-runtime-error.js';
export {
  type BuildJsComponentOptions,
  type BuiltComponent,
  buildJsComponent,
  hashJsComponent,
  packageWitPath,
} from './runtime/componentize.js';
export { type EnvGrant, grantedEnvironment } from './runtime/env-grant.js';
export { type CommandRunReport, commandOutputToResult, inputToArgv } from './runtime/flag-protocol.js';
export type { GuestToolOutput, WorkerOutcome as ComponentCallOutcome } from './runtime/worker-protocol.js';
export { createSandboxToolSource, type SandboxToolSourceOptions } from './sandbox/sandbox-tool-source.js';
export { THREAD_START_TIMEOUT_MS } from './thread-pool/thread-pool.js';
export { type AddressPolicy, createAddressPolicy, TrustedAddressError } from './web-fetch/address-policy.js';
export {
  type AllowedHost,
  AllowedHostError,
  isUrlAllowed,
  parseAllowedHost,
  parseAllowedHosts,
} from './web-fetch/allowed-hosts.js';
export { BlockedAddressError, type WebFetchLookup } from './web-fetch/guarded-agent.js';
export {
  createWebFetchTool,
  WEB_FETCH_DEFAULTS,
  WebFetchConfigError,
  type WebFetchToolOptions,
} from './web-fetch/web-fetch-tool.js';
