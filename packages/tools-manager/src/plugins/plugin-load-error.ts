/**
 * Why a plugin could not be loaded:
 * - `not-found`: no package or path matches the specifier;
 * - `no-entry`: the package or folder exists but has no importable entry file;
 * - `bad-export`: the module loaded but exports neither a setup function nor `{ name, setup }`;
 * - `setup-failed`: importing the module or running its setup threw (or a registration came too late);
 * - `invalid-tool`: setup registered something that is not a usable tool (or a bad skill folder);
 * - `duplicate-tool`: setup registered two tools with the same name.
 */
export type PluginLoadErrorReason =
  | 'not-found'
  | 'no-entry'
  | 'bad-export'
  | 'setup-failed'
  | 'invalid-tool'
  | 'duplicate-tool';

/**
 * Marks every `PluginLoadError` across duplicate package copies, where `instanceof` fails.
 * `Symbol.for` returns the same symbol in every copy of this package.
 */
const PLUGIN_LOAD_ERROR_MARKER: unique symbol = Symbol.for('boxagnts.tools-manager.plugin-load-error');

/** Structured context of a {@link PluginLoadError}. */
export interface PluginLoadErrorOptions {
  reason: PluginLoadErrorReason;
  /** What went wrong and what to change. */
  message: string;
  /** The specifier the host asked for (package name or path). */
  specifier: string;
  /** The plugin's name, once known. */
  pluginName?: string;
  /** The file or folder involved, when there is one. */
  path?: string;
  /** The tool involved, for `invalid-tool` and `duplicate-tool`. */
  toolName?: string;
  cause?: unknown;
}

/**
 * The one error type of plugin loading: a closed `reason` and the specifier, path and tool involved.
 * Test for it with {@link isPluginLoadError}, not `instanceof`.
 */
export class PluginLoadError extends Error {
  readonly [PLUGIN_LOAD_ERROR_MARKER] = true;
  override name = 'PluginLoadError';
  readonly reason: PluginLoadErrorReason;
  readonly specifier: string;
  readonly pluginName: string | undefined;
  readonly path: string | undefined;
  readonly toolName: string | undefined;

  constructor(options: PluginLoadErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = options.reason;
    this.specifier = options.specifier;
    this.pluginName = options.pluginName;
    this.path = options.path;
    this.toolName = options.toolName;
  }
}

/** Whether `value` is a {@link PluginLoadError} from any copy of this package. */
export function isPluginLoadError(value: unknown): value is PluginLoadError {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PLUGIN_LOAD_ERROR_MARKER] === true
  );
}
