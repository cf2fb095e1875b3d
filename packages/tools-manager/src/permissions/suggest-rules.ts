import type { JsonObject } from '@boxagnts/api';
import type { AnyTool, ToolContext } from '@boxagnts/tools';
import { compileRule } from './compile-rule.js';
import { normalizeDomain } from './domain-pattern.js';
import { allowingRules, CallFacts } from './match-call.js';

const GLOB_CHARACTERS = /[*?[\]{}()!+@]/;

/**
 * The narrowest rules that match one call, for remembering a user's answer ("always allow this"):
 * one exact rule per part of a shell command, the root-relative path, `domain:<host>` for a URL, the
 * exact subject otherwise, or the bare tool name for a call without a subject. Returns undefined
 * when no rule can express the call exactly (substitutions or redirects in a command, a path
 * outside the root, a subject containing `*` or glob characters); the caller should then remember
 * nothing rather than something broader. Every suggestion is checked: its rules allow the call.
 *
 * @example
 * suggestRules({ name: 'bash', permission: 'execute' }, { command: 'npm test && git status' }, { root });
 * // ['bash(npm test)', 'bash(git status)']
 */
export function suggestRules(
  tool: Pick<AnyTool, 'name'>,
  input: JsonObject,
  context: Pick<ToolContext, 'root'>,
): string[] | undefined {
  try {
    const rules = candidateRules(tool.name, input, context?.root);
    if (rules === undefined || rules.length === 0) return undefined;
    const compiled = rules.map((rule) => compileRule(rule, 'allow'));
    const allowed = allowingRules(compiled, new CallFacts(tool.name, input, context?.root));
    return allowed === undefined ? undefined : rules;
  } catch {
    return undefined;
  }
}

function candidateRules(name: string, input: JsonObject, root: unknown): string[] | undefined {
  const call = new CallFacts(name, input, root);
  const subject = call.subject;
  if (subject === undefined) return [name];
  if (subject.field === 'url') {
    const host = hostOf(subject.value);
    return host === undefined ? undefined : [`${name}(domain:${host})`];
  }
  if (subject.kind === 'command') {
    const parsed = call.parsedCommand();
    if (parsed.opaque.length > 0) return undefined;
    const texts = [...new Set(parsed.parts.map((part) => part.text))];
    if (texts.some((text) => text.includes('*'))) return undefined;
    return texts.map((text) => withPattern(name, text));
  }
  if (subject.kind === 'path') {
    const placed = call.placedPath();
    if (!placed.inside || placed.relative === '' || GLOB_CHARACTERS.test(placed.relative)) return undefined;
    return [withPattern(name, placed.relative)];
  }
  if (subject.value.includes('*')) return undefined;
  return [withPattern(name, subject.value)];
}

function withPattern(name: string, pattern: string): string {
  return `${name}(${pattern.replace(/[()]/g, '\\$&')})`;
}

function hostOf(url: string): string | undefined {
  try {
    const host = new URL(url).hostname;
    return normalizeDomain(host)?.host;
  } catch {
    return undefined;
  }
}
