import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { SkillArgument, SkillSummary } from './load-skills.js';
import { SKILL_FILE } from './load-skills.js';
import { readConfinedFile } from './read-confined-file.js';
import { splitFrontmatter } from './skill-frontmatter.js';
import { splitArguments } from './split-arguments.js';

/** Largest `SKILL.md` expanded, in bytes. */
const MAX_SKILL_BYTES = 256 * 1024;
const DEFAULT_MAX_SUPPORTING_FILES = 40;
const MAX_SUPPORTING_DEPTH = 4;
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

/** Argument values resolved for one expansion. */
export interface ResolvedArguments {
  /** Declared arguments by name (missing optional ones are empty). */
  named: Record<string, string>;
  /** Words not given as `name=value`, in order: `$1`, `$2`, … */
  positional: string[];
}

function describeArguments(args: readonly SkillArgument[]): string {
  if (args.length === 0) return 'it declares no arguments';
  return `its arguments, in order: ${args
    .map(
      (argument) =>
        `${argument.name} (${argument.required ? 'required' : 'optional'}${argument.default === undefined ? '' : `, default ${argument.default}`}${argument.description ? `: ${argument.description}` : ''})`,
    )
    .join(', ')}`;
}

/**
 * Matches the argument string to a skill's declared arguments: `name=value` words set an argument
 * by name, the other words fill the remaining arguments in declared order, and an argument still
 * without a value takes its declared `default`. Fails when a required argument has no value, with
 * a message naming it and the skill's arguments.
 */
export function resolveSkillArguments(
  skill: Pick<SkillSummary, 'name' | 'args'>,
  argumentString: string,
  asOneValue = false,
): { ok: true; value: ResolvedArguments } | { ok: false; message: string } {
  const declared = new Set(skill.args.map((argument) => argument.name));
  const named: Record<string, string> = {};
  const positional: string[] = [];
  let words = splitArguments(argumentString);
  // BoxAgnts hands its argument string over whole: without name=value words it is one value.
  const namesAny = words.some((word) => declared.has(/^([A-Za-z_][A-Za-z0-9_]*)=/.exec(word)?.[1] ?? ''));
  if (asOneValue && !namesAny) words = argumentString.trim() === '' ? [] : [argumentString.trim()];
  for (const word of words) {
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/.exec(word);
    if (assignment !== null && declared.has(assignment[1]!)) named[assignment[1]!] = assignment[2]!;
    else positional.push(word);
  }
  const queue = [...positional];
  for (const argument of skill.args) {
    if (argument.name in named) continue;
    const value = queue.shift();
    if (value !== undefined) named[argument.name] = value;
    else if (argument.default !== undefined) named[argument.name] = argument.default;
  }
  const missing = skill.args.filter((argument) => argument.required && (named[argument.name] ?? '') === '');
  if (missing.length > 0) {
    const names = missing.map((argument) => `"${argument.name}"`).join(', ');
    return {
      ok: false,
      message: `Skill "${skill.name}" is missing required argument ${names}; ${describeArguments(skill.args)}. Pass them in "arguments", in order or as name=value (quote values with spaces).`,
    };
  }
  for (const argument of skill.args) named[argument.name] ??= '';
  return { ok: true, value: { named, positional } };
}

const PLACEHOLDER = /\$ARGUMENTS\b|\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}|\$(\d+)|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * Replaces `$ARGUMENTS` (the whole string), `{{name}}` and `$name` (declared arguments) and `$1`,
 * `$2`, … (positional words) in one pass, so values are never substituted again. Unknown `$NAME`s
 * (shell variables in examples) are left alone. When the body has no placeholder at all and
 * arguments were given, they are appended as an `ARGUMENTS:` line so they are not lost.
 */
export function substituteArguments(body: string, argumentString: string, resolved: ResolvedArguments): string {
  let used = false;
  const text = body.replace(PLACEHOLDER, (match, braced?: string, index?: string, bare?: string) => {
    if (match === '$ARGUMENTS') {
      used = true;
      return argumentString;
    }
    if (index !== undefined) {
      used = true;
      return resolved.positional[Number(index) - 1] ?? '';
    }
    const name = braced ?? bare!;
    if (!Object.hasOwn(resolved.named, name)) return match;
    used = true;
    return resolved.named[name]!;
  });
  const trimmed = argumentString.trim();
  return used || trimmed === '' ? text : `${text.trimEnd()}\n\nARGUMENTS: ${trimmed}\n`;
}

/** Supporting files of a skill folder (relative, `/`-separated, sorted, bounded), and how many were left out. */
export async function listSupportingFiles(
  directory: string,
  limit = DEFAULT_MAX_SUPPORTING_FILES,
): Promise<{ files: string[]; omitted: number }> {
  const files: string[] = [];
  let omitted = 0;
  let level = [directory];
  for (let depth = 0; depth < MAX_SUPPORTING_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const folder of level) {
      const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        if (entry.name.startsWith('.') || SKIPPED_FOLDERS.has(entry.name)) continue;
        const path = join(folder, entry.name);
        if (entry.isDirectory()) next.push(path);
        else if (!(folder === directory && entry.name === SKILL_FILE)) {
          if (files.length < limit) files.push(relative(directory, path).split(sep).join('/'));
          else omitted++;
        }
      }
    }
    level = next;
  }
  return { files, omitted };
}

/** Options of {@link expandSkill}. */
export interface ExpandSkillOptions {
  /** Most supporting files named in the header; default 40. */
  maxSupportingFiles?: number;
  /**
   * Read the argument string as BoxAgnts does: one value (the first argument, and `$ARGUMENTS`
   * as given) unless it has `name=value` words. Default false: words split like a command line.
   */
  argumentsAsOneValue?: boolean;
}

/** An expanded skill, ready for the model, or why it could not be expanded. */
export type SkillExpansion = { ok: true; text: string; supportingFiles: string[] } | { ok: false; message: string };

/**
 * Loads a skill's body (only now: listing reads frontmatter alone), strips the frontmatter, fills
 * in the arguments and puts a header in front telling the model the skill's folder and its
 * supporting files, so it can read them relative to that folder. Never throws.
 */
export async function expandSkill(
  skill: SkillSummary,
  argumentString = '',
  options: ExpandSkillOptions = {},
): Promise<SkillExpansion> {
  const resolved = resolveSkillArguments(skill, argumentString, options.argumentsAsOneValue === true);
  if (!resolved.ok) return resolved;
  // Read again now, under the same rules as the listing: the file may have been swapped for a link since.
  const read = await readConfinedFile(skill.file, {
    within: skill.directory,
    refuseHardLinks: skill.inWritableRoot === true,
    maxBytes: MAX_SKILL_BYTES,
  });
  if (!read.ok) {
    if (read.problem === 'too-large') {
      const size = await stat(skill.file).then(
        (stats) => stats.size,
        () => MAX_SKILL_BYTES + 1,
      );
      return { ok: false, message: `Skill "${skill.name}" is too large (${size} bytes, at most ${MAX_SKILL_BYTES}).` };
    }
    return { ok: false, message: `Skill "${skill.name}" could not be read from ${skill.file}: ${read.message}.` };
  }
  const content = read.text;
  const split = splitFrontmatter(content);
  if (split === null) {
    return { ok: false, message: `Skill "${skill.name}" (${skill.file}) no longer has a valid frontmatter block.` };
  }
  const body = substituteArguments(split.body, argumentString, resolved.value).trim();
  const supporting = await listSupportingFiles(skill.directory, options.maxSupportingFiles);
  const header = [`# Skill: ${skill.name}`, `Skill folder: ${skill.directory}`];
  if (supporting.files.length > 0) {
    const more = supporting.omitted > 0 ? ` (and ${supporting.omitted} more)` : '';
    header.push(
      `Supporting files (paths relative to the skill folder; read them only when the instructions call for them): ${supporting.files.join(', ')}${more}`,
    );
  } else {
    header.push('Relative paths in these instructions are relative to the skill folder.');
  }
  if (skill.allowedTools.length > 0) header.push(`Tools this skill expects: ${skill.allowedTools.join(', ')}`);
  return { ok: true, text: `${header.join('\n')}\n\n${body}\n`, supportingFiles: supporting.files };
}
