import type { JsonObject } from '@boxagnts/api';
import type {
  AnyTool,
  ToolContext,
  ToolPermission,
  ToolResult,
  AccessLevel as ToolsAccessLevel,
} from '@boxagnts/tools';

/** Which tools an agent gets, by permission level; see `accessAllows` of @boxagnts/tools. */
export type AccessLevel = ToolsAccessLevel;

/**
 * How permission rules apply:
 * - `default`: rules decide; a call no rule matches is allowed when the tool is read-only and asked otherwise;
 * - `plan`: only read-only tools run (and exit_plan_mode); everything else is denied;
 * - `accept-edits`: like default, but `write` tools are allowed without asking (deny and ask rules still apply);
 * - `bypass`: every call is allowed except those a `deny` rule matches.
 */
export type PermissionMode = 'default' | 'plan' | 'accept-edits' | 'bypass';

/** The three rule lists; `deny` wins over `ask`, `ask` over `allow`. Rules are strings like `bash(npm test:*)`. */
export interface PermissionRules {
  allow?: readonly string[];
  ask?: readonly string[];
  deny?: readonly string[];
}

/** A parsed rule: a tool-name pattern and an optional input pattern. */
export interface ParsedPermissionRule {
  /** The rule as written. */
  source: string;
  /** Tool name pattern (`*` matches any run of characters), compared case-insensitively. */
  tool: string;
  /** What is inside the parentheses, if anything. */
  pattern?: string;
}

/** The outcome of evaluating one call against the rules and the mode. */
export type PermissionDecision =
  | { behavior: 'allow'; rule?: string; reason: string }
  | { behavior: 'ask'; rule?: string; reason: string }
  | { behavior: 'deny'; rule?: string; reason: string };

/** What the host is asked when a call needs approval. */
export interface PermissionRequest {
  tool: Pick<AnyTool, 'name' | 'description' | 'permission'>;
  input: JsonObject;
  /** Why approval is needed (the matching rule, or the default for the tool's permission). */
  reason: string;
  /** The `ask` rule that matched, when a rule (not the mode's default) asks. */
  rule?: string;
  context: ToolContext;
}

/** The host's answer. `remember: true` adds an allow (or deny) rule for the same tool and input for the rest of the run. */
export type PermissionAnswer =
  | { behavior: 'allow'; remember?: boolean }
  | { behavior: 'deny'; reason?: string; remember?: boolean };

/** Supplied by interactive hosts; without one, `ask` is `deny` with a reason the model sees. */
export type AskHandler = (request: PermissionRequest) => Promise<PermissionAnswer>;

/** Decides whether a call may run. Pure: no side effects, no I/O beyond resolving paths. */
export interface PermissionEngine {
  readonly mode: PermissionMode;
  setMode(mode: PermissionMode): void;
  /** Evaluates rules then mode for one call (input already validated). */
  evaluate(
    tool: Pick<AnyTool, 'name' | 'permission'>,
    input: JsonObject,
    context: Pick<ToolContext, 'root'>,
  ): PermissionDecision;
  /** Adds rules at run time (e.g. an answer the user asked to remember). */
  addRules(rules: PermissionRules): void;
}

/** The tools' permission levels an access level admits. */
export type AccessFilter = (permission: ToolPermission) => boolean;

/** What a before-tool hook sees. */
export interface BeforeToolEvent {
  tool: Pick<AnyTool, 'name' | 'permission'>;
  input: JsonObject;
  context: ToolContext;
}

/** A before-tool hook's answer: block with a reason, replace the input, or nothing (go on). */
// biome-ignore lint/suspicious/noConfusingVoidType: a hook function that returns nothing means "go on"
export type BeforeToolOutcome = { block: true; reason: string } | { input: JsonObject } | undefined | void;

/** What an after-tool hook sees. */
export interface AfterToolEvent {
  tool: Pick<AnyTool, 'name' | 'permission'>;
  input: JsonObject;
  result: ToolResult;
  context: ToolContext;
  durationMs: number;
}

/** An after-tool hook's answer: a replacement result, an annotation appended to the result text, or nothing. */
// biome-ignore lint/suspicious/noConfusingVoidType: a hook function that returns nothing keeps the result
export type AfterToolOutcome = { result: ToolResult } | { annotate: string } | undefined | void;

/** A hook as a function. */
export interface FunctionHook<Event, Outcome> {
  /** Tool name pattern (`*` wildcards); default: every tool. */
  matcher?: string;
  /** Longest the hook may take before it is reported and skipped; default 60,000 ms. */
  timeoutMs?: number;
  run(event: Event, signal: AbortSignal): Promise<Outcome> | Outcome;
}

/**
 * A hook as a shell command: gets the event as JSON on stdin (tool name, input, result, root, session id).
 * Exit 0 with JSON on stdout gives an outcome (`{"block":true,"reason":...}`, `{"input":{...}}`,
 * `{"result":{...}}`, `{"annotate":"..."}`) or nothing; exit 2 blocks with stderr as the reason (before-tool);
 * any other failure or a timeout is reported and the call goes on.
 */
export interface CommandHook {
  matcher?: string;
  command: string;
  /** Default 60,000 ms; the whole process group is killed on timeout. */
  timeoutMs?: number;
  cwd?: string;
  env?: Record<string, string>;
}

export type BeforeToolHook = FunctionHook<BeforeToolEvent, BeforeToolOutcome> | CommandHook;
export type AfterToolHook = FunctionHook<AfterToolEvent, AfterToolOutcome> | CommandHook;

export interface ToolHooks {
  beforeTool?: readonly BeforeToolHook[];
  afterTool?: readonly AfterToolHook[];
}

/** A hook that failed, timed out, or answered nonsense: reported, never fatal. */
export interface HookFailure {
  phase: 'before' | 'after';
  hook: string;
  tool: string;
  message: string;
}
