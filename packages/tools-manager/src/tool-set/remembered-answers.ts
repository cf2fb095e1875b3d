import type { JsonObject } from '@boxagnts/api';
import type { AnyTool, ToolContext } from '@boxagnts/tools';
import { callSubject } from '../permissions/call-subject.js';
import type { PermissionEngine } from '../types.js';

/** Subjects made only of characters no rule syntax gives a meaning to (no `*`, globs, quotes or shell operators). */
const PLAIN_TEXT = /^[A-Za-z0-9 _.,/=:@%+-]+$/;
const PLAIN_PATH = /^[A-Za-z0-9_./-]+$/;

/** Orders object keys so two equal inputs give the same key. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A permission rule matching exactly this call's subject (`bash(npm test)`, `read(src/a.ts)`), or
 * undefined when the subject has characters a rule pattern would read as syntax, or there is none
 * (a bare tool name would match every call of the tool).
 */
export function exactSubjectRule(toolName: string, input: JsonObject): string | undefined {
  const subject = callSubject(input);
  if (subject === undefined) return undefined;
  const value = subject.value;
  if (value.trim() !== value || value === '' || value.toLowerCase().startsWith('domain:')) return undefined;
  if (subject.kind === 'path') {
    if (!PLAIN_PATH.test(value) || value.split('/').includes('..')) return undefined;
  } else if (!PLAIN_TEXT.test(value) || /\s{2,}/.test(value)) {
    return undefined;
  }
  return `${toolName}(${value})`;
}

/**
 * The answers a user asked to remember for the rest of the run. An answer becomes an engine rule
 * for the tool and the call's exact subject when such a rule can be written and the engine then
 * decides that call as answered; otherwise the exact call (tool and whole input) is remembered here.
 */
export class RememberedAnswers {
  private readonly exact = new Map<string, 'allow' | 'deny'>();

  constructor(private readonly engine: PermissionEngine) {}

  /** Records an answer; returns the engine rule it added, if it added one. */
  remember(
    tool: Pick<AnyTool, 'name' | 'permission'>,
    input: JsonObject,
    behavior: 'allow' | 'deny',
    context: Pick<ToolContext, 'root'>,
  ): string | undefined {
    const rule = exactSubjectRule(tool.name, input);
    if (rule !== undefined) {
      try {
        this.engine.addRules(behavior === 'allow' ? { allow: [rule] } : { deny: [rule] });
        if (this.engine.evaluate(tool, input, context).behavior === behavior) return rule;
      } catch {
        // The engine could not take the rule: remember the exact call below instead.
      }
    }
    this.exact.set(`${tool.name}\n${stableJson(input)}`, behavior);
    return undefined;
  }

  /** The remembered answer for exactly this call, if any. */
  recall(toolName: string, input: JsonObject): 'allow' | 'deny' | undefined {
    return this.exact.get(`${toolName}\n${stableJson(input)}`);
  }
}
