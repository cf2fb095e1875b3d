import type { JsonObject } from '@boxagnts/api';
import { type AnyTool, EXIT_PLAN_MODE_TOOL_NAME } from '@boxagnts/tools';
import type { PermissionDecision, PermissionEngine, PermissionMode, PermissionRules } from '../types.js';
import { type CompiledRule, compileRule, type RuleList } from './compile-rule.js';
import { allowingRules, CallFacts, matchesBroadly } from './match-call.js';
import { PermissionRuleError } from './parse-rule.js';
import { isPermissionMode, PermissionModeError } from './permission-mode.js';

/** How to build a {@link PermissionEngine}. */
export interface PermissionEngineOptions {
  /** Allow, ask and deny rules; parsed at once, so a bad rule throws here. */
  rules?: PermissionRules;
  /** Starting mode; default `default`. */
  mode?: PermissionMode;
}

type Tool = Pick<AnyTool, 'name' | 'permission'>;

/**
 * Creates the engine that decides, call by call, whether a tool may run: deny rules, then ask
 * rules, then allow rules, then the mode's default. Rules are parsed here, so a typo in the
 * configuration throws a `PermissionRuleError` at start-up instead of silently matching nothing.
 *
 * @example
 * const engine = createPermissionEngine({
 *   rules: { allow: ['bash(npm test:*)', 'read'], deny: ['bash(rm:*)', 'read(.env)'] },
 * });
 * engine.evaluate({ name: 'bash', permission: 'execute' }, { command: 'npm test -- --watch=false' }, { root: '/repo' });
 * // { behavior: 'allow', rule: 'bash(npm test:*)', reason: 'Allowed by rule `bash(npm test:*)`.' }
 */
export function createPermissionEngine(options: PermissionEngineOptions = {}): PermissionEngine {
  const lists: Record<RuleList, CompiledRule[]> = { allow: [], ask: [], deny: [] };
  let mode = checkMode(options.mode ?? 'default');

  const addRules = (rules: PermissionRules): void => {
    const compiled: Record<RuleList, CompiledRule[]> = { allow: [], ask: [], deny: [] };
    for (const list of ['allow', 'ask', 'deny'] as const) {
      const texts: unknown = rules[list] ?? [];
      if (!Array.isArray(texts)) {
        throw new PermissionRuleError(
          String(texts),
          'not-a-list',
          `Permission rules \`${list}\` must be a list of strings, e.g. { ${list}: ['bash(npm test:*)'] }, not ${JSON.stringify(texts)}.`,
        );
      }
      for (const text of texts) compiled[list].push(compileRule(text, list));
    }
    // Only after every rule compiled: a bad rule leaves the engine as it was.
    for (const list of ['allow', 'ask', 'deny'] as const) lists[list].push(...compiled[list]);
  };
  addRules(options.rules ?? {});

  const decide = (tool: Tool, input: JsonObject, root: unknown): PermissionDecision => {
    const call = new CallFacts(tool.name, input, root);
    const denied = lists.deny.find((rule) => matchesBroadly(rule, call));
    if (denied !== undefined) {
      return {
        behavior: 'deny',
        rule: denied.source,
        reason: `Denied by rule \`${denied.source}\`${unknownNote(call)}. Do not retry this call; do the task another way or ask the user.`,
      };
    }
    if (mode === 'plan' && tool.permission !== 'read-only' && tool.name !== EXIT_PLAN_MODE_TOOL_NAME) {
      return { behavior: 'deny', reason: planModeReason(tool) };
    }
    const asked = lists.ask.find((rule) => matchesBroadly(rule, call));
    if (asked !== undefined) {
      if (mode === 'bypass') {
        return {
          behavior: 'allow',
          rule: asked.source,
          reason: `Allowed: bypass mode overrides ask rule \`${asked.source}\`.`,
        };
      }
      return {
        behavior: 'ask',
        rule: asked.source,
        reason: `Needs approval: rule \`${asked.source}\` asks for it${unknownNote(call)}.`,
      };
    }
    const allowed = allowingRules(lists.allow, call);
    if (allowed !== undefined && allowed.length > 0) {
      return {
        behavior: 'allow',
        rule: allowed[0] as string,
        reason: `Allowed by ${allowed.length === 1 ? 'rule' : 'rules'} ${allowed.map((rule) => `\`${rule}\``).join(', ')}.`,
      };
    }
    return modeDefault(tool, call);
  };

  const modeDefault = (tool: Tool, call: CallFacts): PermissionDecision => {
    if (mode === 'bypass')
      return { behavior: 'allow', reason: 'Allowed: bypass mode allows every call no deny rule matches.' };
    if (tool.permission === 'read-only') {
      return { behavior: 'allow', reason: `Allowed: \`${tool.name}\` is read-only and no rule matched.` };
    }
    if (tool.name === EXIT_PLAN_MODE_TOOL_NAME) {
      return { behavior: 'allow', reason: `Allowed: \`${tool.name}\` runs unless a rule says otherwise.` };
    }
    if (mode === 'accept-edits' && tool.permission === 'write') {
      // Every path the call names, as written and with links followed, must lie inside the root.
      if (call.pathsInsideRoot()) {
        return { behavior: 'allow', reason: 'Allowed: accept-edits mode allows edits inside the working root.' };
      }
      return {
        behavior: 'ask',
        reason: `Needs approval: accept-edits mode allows edits only to a path inside the working root, and this \`${tool.name}\` call has none.`,
      };
    }
    return {
      behavior: 'ask',
      reason: `Needs approval: \`${tool.name}\` needs ${tool.permission} permission and no allow rule matches this call.`,
    };
  };

  return {
    get mode(): PermissionMode {
      return mode;
    },
    setMode(next: PermissionMode): void {
      mode = checkMode(next);
    },
    evaluate(tool, input, context): PermissionDecision {
      try {
        return decide(tool, input, (context as { root?: unknown } | undefined)?.root);
      } catch (error) {
        // Unreachable by design; failing closed keeps an unforeseen input from running unchecked.
        return {
          behavior: 'deny',
          reason: `Denied: the permission check failed (${error instanceof Error ? error.message : String(error)}).`,
        };
      }
    },
    addRules,
  };
}

/** Says why a command rule matched a command whose program is only named at run time. */
function unknownNote(call: CallFacts): string {
  const subject = call.subjects.find((candidate) => candidate.kind === 'command');
  const unknown = subject === undefined ? undefined : call.unknownProgram(subject);
  if (unknown === undefined) return '';
  return ` (the command may run a program its text does not name: \`${unknown.slice(0, 80)}\` is known only when the shell runs it, so the rule cannot be ruled out; name the program literally)`;
}

function checkMode(mode: unknown): PermissionMode {
  if (!isPermissionMode(mode)) throw new PermissionModeError(mode);
  return mode;
}

function planModeReason(tool: Tool): string {
  return (
    `Denied: the run is in plan mode, where only read-only tools run (\`${tool.name}\` needs ${tool.permission} permission). ` +
    `Keep exploring with read-only tools, then call ${EXIT_PLAN_MODE_TOOL_NAME} with your plan; once the user approves it, call this tool again.`
  );
}
