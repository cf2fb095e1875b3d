import { type CallSubject, callSubject, urlSubject } from './call-subject.js';
import { allowCandidates, denyCandidates } from './command-candidates.js';
import type { CompiledRule } from './compile-rule.js';
import { type ParsedCommand, parseCommand } from './parse-command.js';
import { type PlacedPath, placePath } from './path-pattern.js';

/**
 * One call as the rules see it; the subject is parsed once (lazily) and shared by every rule.
 */
export class CallFacts {
  readonly subject: CallSubject | undefined;
  readonly url: string | undefined;
  private command: ParsedCommand | undefined;
  private broadTexts: string[] | undefined;
  private placed: PlacedPath | undefined;

  constructor(
    readonly toolName: string,
    input: unknown,
    private readonly root: unknown,
  ) {
    this.subject = callSubject(input);
    this.url = urlSubject(input);
  }

  /** The command line split into simple commands (command subjects only). */
  parsedCommand(): ParsedCommand {
    this.command ??= parseCommand(this.subject?.value ?? '');
    return this.command;
  }

  /** Every text a deny or ask rule may recognise in the command. */
  denyTexts(): string[] {
    if (this.broadTexts === undefined) {
      const parsed = this.parsedCommand();
      const texts = new Set<string>();
      for (const part of [...parsed.parts, ...parsed.nested]) {
        for (const text of denyCandidates(part)) texts.add(text);
      }
      if (parsed.opaque.includes('unterminated')) {
        // The shell would read an unterminated quote differently from us: also try the pieces between separators.
        for (const piece of (this.subject?.value ?? '').split(/[;&|\n\r]+/)) {
          const unquoted = piece.replace(/["'`\\]/g, '').trim();
          if (unquoted !== '') texts.add(unquoted.replace(/[ \t]+/g, ' '));
        }
      }
      this.broadTexts = [...texts];
    }
    return this.broadTexts;
  }

  /** The path subject placed relative to the root (path subjects only). */
  placedPath(): PlacedPath {
    this.placed ??= placePath(this.subject?.value ?? '', this.root);
    return this.placed;
  }
}

/**
 * Does a deny or ask rule match the call? Broadly: any part of a compound command, any reading of
 * a path, case-insensitively.
 */
export function matchesBroadly(rule: CompiledRule, call: CallFacts): boolean {
  if (!rule.matchesTool(call.toolName)) return false;
  const pattern = rule.pattern;
  if (pattern === undefined) return true;
  if (pattern.domain !== undefined) return call.url !== undefined && pattern.domain(call.url);
  const subject = call.subject;
  if (subject === undefined) return false;
  switch (subject.kind) {
    case 'command':
      return call.denyTexts().some((text) => pattern.command(text));
    case 'path':
      return pattern.path(call.placedPath());
    case 'text':
      return pattern.text(subject.value);
  }
}

/**
 * The allow rules that together allow the call, or undefined. Strictly: a compound command needs
 * every part allowed (by one rule or several), a command with substitutions, file redirects or
 * here-documents is never allowed by a pattern, and a path must lie inside the root.
 */
export function allowingRules(rules: readonly CompiledRule[], call: CallFacts): string[] | undefined {
  const candidates = rules.filter((rule) => rule.matchesTool(call.toolName));
  const subject = call.subject;
  for (const rule of candidates) {
    const pattern = rule.pattern;
    if (pattern === undefined) return [rule.source];
    if (pattern.domain !== undefined) {
      if (call.url !== undefined && pattern.domain(call.url)) return [rule.source];
      continue;
    }
    if (subject?.kind === 'path' && pattern.path(call.placedPath())) return [rule.source];
    if (subject?.kind === 'text' && pattern.text(subject.value)) return [rule.source];
  }
  if (subject?.kind !== 'command') return undefined;
  return commandCoverage(candidates, call.parsedCommand());
}

function commandCoverage(rules: readonly CompiledRule[], parsed: ParsedCommand): string[] | undefined {
  if (parsed.opaque.length > 0 || parsed.parts.length === 0) return undefined;
  const used: string[] = [];
  for (const part of parsed.parts) {
    const texts = allowCandidates(part);
    const rule = rules.find(
      (candidate) =>
        candidate.pattern !== undefined &&
        candidate.pattern.domain === undefined &&
        texts.some((text) => candidate.pattern?.command(text) === true),
    );
    if (rule === undefined) return undefined;
    if (!used.includes(rule.source)) used.push(rule.source);
  }
  return used;
}
