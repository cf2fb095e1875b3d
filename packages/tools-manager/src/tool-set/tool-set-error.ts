/**
 * Why a tool set could not be assembled or closed:
 * - `name-collision`: two sources offer a tool of the same name;
 * - `invalid-tool-name`: a source offers a tool whose name providers would reject;
 * - `duplicate-source`: two sources share a name;
 * - `source-load-failed`: a source's `load()` threw;
 * - `close-failed`: one or more sources failed to close;
 * - `unsafe-hook`: a command hook's working folder or file lies inside an agents' root.
 */
export type ToolSetErrorReason =
  | 'name-collision'
  | 'invalid-tool-name'
  | 'duplicate-source'
  | 'source-load-failed'
  | 'close-failed'
  | 'unsafe-hook';

/**
 * Marks every tool set error across duplicate package copies, where `instanceof` fails.
 * `Symbol.for` returns the same symbol in every copy of this package.
 */
const TOOL_SET_ERROR_MARKER: unique symbol = Symbol.for('boxagnts.tools-manager.tool-set-error');
const TOOL_NAME_COLLISION_MARKER: unique symbol = Symbol.for('boxagnts.tools-manager.tool-name-collision-error');

/** Structured context of a {@link ToolSetError}. */
export interface ToolSetErrorOptions {
  reason: ToolSetErrorReason;
  /** What went wrong and what to change. */
  message: string;
  /** The source involved, when there is one. */
  source?: string;
  /** The tool involved, when there is one. */
  tool?: string;
  cause?: unknown;
}

/**
 * The base of the tool set's errors: thrown while assembling, refreshing or closing a tool set
 * (configuration the host must fix), never from a tool call. Test for it with {@link isToolSetError}.
 */
export class ToolSetError extends Error {
  readonly [TOOL_SET_ERROR_MARKER] = true;
  override name = 'ToolSetError';
  readonly reason: ToolSetErrorReason;
  readonly source: string | undefined;
  readonly tool: string | undefined;

  constructor(options: ToolSetErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = options.reason;
    this.source = options.source;
    this.tool = options.tool;
  }
}

/**
 * Two sources offer a tool of the same name. The message names the tool and both sources, and says
 * how to resolve it (rename one, or drop one with a deny list).
 */
export class ToolNameCollisionError extends ToolSetError {
  readonly [TOOL_NAME_COLLISION_MARKER] = true;
  override name = 'ToolNameCollisionError';
  /** The two sources, in the order they were given. */
  readonly sources: readonly [string, string];

  constructor(tool: string, first: string, second: string) {
    super({
      reason: 'name-collision',
      tool,
      source: second,
      message: `"${tool}" is offered by both "${first}" and "${second}"; rename one or drop it with deny.`,
    });
    this.sources = [first, second];
  }
}

/** True for a {@link ToolSetError} (and its subclasses), even one from another copy of this package. */
export function isToolSetError(error: unknown): error is ToolSetError {
  return typeof error === 'object' && error !== null && TOOL_SET_ERROR_MARKER in error;
}

/** True for a {@link ToolNameCollisionError}, even one from another copy of this package. */
export function isToolNameCollisionError(error: unknown): error is ToolNameCollisionError {
  return typeof error === 'object' && error !== null && TOOL_NAME_COLLISION_MARKER in error;
}
