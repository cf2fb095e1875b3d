import { type CallSubject, callSubjects, urlSubject } from './call-subject.js';
import { allowCandidates, denyCandidates, unknownProgram } from './command-candidates.js';
import type { CompiledRule } from './compile-rule.js';
import { type ParsedCommand, parseCommand } from './parse-command.js';
import { type PlacedPath, placePath } from './path-pattern.js';
import { placePathCandidates } from './place-path-candidates.js';

/**
 * One call as the rules see it: every candidate subject (each subject field holding a string),
 * parsed once (lazily) and shared by every rule. `subject` is the first candidate, the one a rule
 * suggestion names.
 */
export class CallFacts {
  readonly subjects: readonly CallSubject[];
  readonly subject: CallSubject | undefined;
  readonly url: string | undefined;
  private readonly commands = new Map<string, ParsedCommand>();
  private readonly broadTexts = new Map<string, string[]>();
  private readonly unknownPrograms = new Map<string, string | null>();
  private readonly readings = new Map<string, PlacedPath[]>();
  private placed: PlacedPath | undefined;

  constructor(
    readonly toolName: string,
    input: unknown,
    private readonly root: unknown,
  ) {
    this.subjects = callSubjects(input);
    this.subject = this.subjects[0];
    this.url = urlSubject(input);
  }

  /** The command line split into simple commands (the first subject, or the one given). */
  parsedCommand(subject: CallSubject | undefined = this.subject): ParsedCommand {
    const value = subject?.value ?? '';
    let parsed = this.commands.get(value);
    if (parsed === undefined) {
      parsed = parseCommand(value);
      this.commands.set(value, parsed);
    }
    return parsed;
  }

  /** Every text a deny or ask rule may recognise in a command subject. */
  denyTexts(subject: CallSubject | undefined = this.subject): string[] {
    const value = subject?.value ?? '';
    let cached = this.broadTexts.get(value);
    if (cached === undefined) {
      const parsed = this.parsedCommand(subject);
      const texts = new Set<string>();
      for (const part of [...parsed.parts, ...parsed.nested]) {
        for (const text of denyCandidates(part)) texts.add(text);
      }
      cached = [...texts];
      this.broadTexts.set(value, cached);
    }
    return cached;
  }

  /**
   * What in a command subject names a program only at run time (`$x`, a glob, a script piped into
   * a shell), or undefined: then a deny or ask rule cannot rule the command out, so it matches.
   */
  unknownProgram(subject: CallSubject | undefined = this.subject): string | undefined {
    const value = subject?.value ?? '';
    let cached = this.unknownPrograms.get(value);
    if (cached === undefined) {
      const parsed = this.parsedCommand(subject);
      // Text the parser refuses: bash may still run part of it (`select`, `coproc`), so fail closed.
      cached = parsed.opaque.includes('unterminated') ? 'text the shell parser cannot read' : null;
      for (const part of cached === null ? [...parsed.parts, ...parsed.nested] : []) {
        const unknown = unknownProgram(part);
        if (unknown !== undefined) {
          cached = unknown;
          break;
        }
      }
      this.unknownPrograms.set(value, cached);
    }
    return cached ?? undefined;
  }

  /** The first subject placed relative to the root as written (no links followed). */
  placedPath(): PlacedPath {
    this.placed ??= placePath(this.subject?.value ?? '', this.root);
    return this.placed;
  }

  /** Every reading of a path subject: as written, and with symbolic links followed. */
  pathReadings(subject: CallSubject): PlacedPath[] {
    let cached = this.readings.get(subject.value);
    if (cached === undefined) {
      cached = placePathCandidates(subject.value, this.root);
      this.readings.set(subject.value, cached);
    }
    return cached;
  }

  /** The texts a `domain:` pattern reads: the `url` field, and for deny and ask every subject. */
  urlTexts(): string[] {
    const texts = this.url === undefined ? [] : [this.url];
    for (const subject of this.subjects) if (!texts.includes(subject.value)) texts.push(subject.value);
    return texts;
  }

  /** Are all path subjects inside the root, in every reading (and is there at least one)? */
  pathsInsideRoot(): boolean {
    const paths = this.subjects.filter((subject) => subject.kind === 'path');
    return paths.length > 0 && paths.every((subject) => this.pathReadings(subject).every((reading) => reading.inside));
  }
}

/**
 * Does a deny or ask rule match the call? Broadly: any candidate subject, any part of a compound
 * command, any reading of a path (as written or with links followed), case-insensitively. A
 * command whose program is named only at run time (`$x -rf /`) matches every command pattern.
 */
export function matchesBroadly(rule: CompiledRule, call: CallFacts): boolean {
  if (!rule.matchesTool(call.toolName)) return false;
  const pattern = rule.pattern;
  if (pattern === undefined) return true;
  if (pattern.domain !== undefined) {
    const domain = pattern.domain;
    return call.urlTexts().some((text) => domain(text));
  }
  return call.subjects.some((subject) => {
    if (subject.kind === 'command') {
      return (
        call.denyTexts(subject).some((text) => pattern.command(text)) || call.unknownProgram(subject) !== undefined
      );
    }
    if (subject.kind === 'path') return call.pathReadings(subject).some((reading) => pattern.path(reading));
    return pattern.text(subject.value);
  });
}

/**
 * The allow rules that together allow the call, or undefined. Strictly: the first subject and
 * every other path or command subject must each be allowed; a compound command needs every part
 * allowed (by one rule or several), a command with substitutions, file redirects or here-documents
 * is never allowed by a pattern, and a path must lie inside the root in every reading.
 */
export function allowingRules(rules: readonly CompiledRule[], call: CallFacts): string[] | undefined {
  const candidates = rules.filter((rule) => rule.matchesTool(call.toolName));
  const bare = candidates.find((rule) => rule.pattern === undefined);
  if (bare !== undefined) return [bare.source];
  const first = call.subject;
  if (first === undefined) {
    // No subject: only a `domain:` rule over the `url` field (kept for odd inputs) can allow.
    const domain = candidates.find((rule) => call.url !== undefined && rule.pattern?.domain?.(call.url) === true);
    return domain === undefined ? undefined : [domain.source];
  }
  const used: string[] = [];
  for (const subject of call.subjects) {
    if (subject !== first && subject.kind === 'text') continue;
    const covering = coverSubject(candidates, call, subject, subject === first);
    if (covering === undefined) return undefined;
    for (const rule of covering) if (!used.includes(rule)) used.push(rule);
  }
  return used;
}

function coverSubject(
  rules: readonly CompiledRule[],
  call: CallFacts,
  subject: CallSubject,
  isFirst: boolean,
): string[] | undefined {
  for (const rule of rules) {
    const pattern = rule.pattern;
    if (pattern === undefined) continue;
    if (pattern.domain !== undefined) {
      const readsUrl = subject.field === 'url' || (isFirst && call.url === subject.value);
      if (readsUrl && pattern.domain(subject.value)) return [rule.source];
      continue;
    }
    if (subject.kind === 'path') {
      const readings = call.pathReadings(subject);
      if (readings.every((reading) => pattern.path(reading))) return [rule.source];
    }
    if (subject.kind === 'text' && pattern.text(subject.value)) return [rule.source];
  }
  if (subject.kind !== 'command') return undefined;
  return commandCoverage(rules, call.parsedCommand(subject));
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
