import { basename, dirname } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { closeNames } from '../skills/close-names.js';
import { expandSkill } from '../skills/expand-skill.js';
import { loadSkills, type SkillCatalogue } from '../skills/load-skills.js';
import { formatSkillListing } from '../skills/skill-listing.js';
import type { Tool } from '../tool.js';
import { errorResult, textResult } from '../tool-results.js';

const skillInput = z.object({
  name: z
    .string()
    .min(1)
    .optional()
    .describe('The skill to load, exactly as listed (e.g. "code-review"). Leave out to list the available skills.'),
  arguments: z
    .string()
    .optional()
    .describe(
      'Arguments for the skill as one string, split like a shell command line: words in order, or name=value; quote values that contain spaces. Leave out when the skill takes none.',
    ),
  // BoxAgnts' call shape `{skill, args}`, accepted as it is so its prompts and models work unchanged.
  skill: z.string().min(1).optional().describe('Same as "name" ("list" lists the skills).'),
  args: z
    .union([z.string(), z.array(z.string()), z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))])
    .optional()
    .describe('Same as "arguments"; also a list of words or an object of name: value.'),
});

/** The name BoxAgnts' `{skill: "list"}` uses for "list the skills". */
const LIST = 'list';

/** Options of {@link createSkillTool}. */
export interface SkillToolOptions {
  /** Search folders, most specific first (see `defaultSkillFolders`). */
  folders: readonly string[];
  /** The tool's name; default `skill` (`skill-tool` for prompts written for BoxAgnts that call it so). */
  name?: string;
}

/** A word of an argument string: quoted when it holds a blank or a quote, so `splitArguments` gets it back whole. */
function argumentWord(value: string): string {
  return /^[^\s'"\\]+$/.test(value) ? value : `'${value.replace(/'/g, `'"'"'`)}'`;
}

/** `args` of the BoxAgnts shape as a list or a map, as this tool's argument string. */
function argumentString(args: Exclude<z.output<typeof skillInput>['args'], string | undefined>): string {
  if (Array.isArray(args)) return args.map(argumentWord).join(' ');
  return Object.entries(args)
    .map(([key, value]) => `${key}=${argumentWord(String(value))}`)
    .join(' ');
}

function listingText(catalogue: SkillCatalogue): string {
  const parts = [formatSkillListing(catalogue.skills)];
  if (catalogue.overrides.length > 0) {
    parts.push(
      `Overridden skills (the first folder wins):\n${catalogue.overrides
        .map((override) => `- ${override.name}: using ${override.used}, ignoring ${override.ignored.join(', ')}`)
        .join('\n')}`,
    );
  }
  if (catalogue.warnings.length > 0) {
    parts.push(
      `Skipped (malformed):\n${catalogue.warnings.map((warning) => `- ${warning.file}: ${warning.message}`).join('\n')}`,
    );
  }
  return parts.join('\n\n');
}

/**
 * The `skill` tool: lists the skills found in the search folders, or loads one (its instructions
 * with the arguments filled in, and its folder so supporting files can be read). Skills are read
 * fresh on every call, so edits to a `SKILL.md` apply at once.
 *
 * @example
 * const skill = createSkillTool({
 *   folders: defaultSkillFolders({ root: process.cwd(), builtinFolder: '/opt/boxagnts/extensions/skills' }),
 * });
 */
export function createSkillTool(options: SkillToolOptions): Tool<typeof skillInput> {
  return defineTool({
    name: options.name ?? 'skill',
    description: [
      'Load a skill: task-specific instructions (and supporting files) written for this project or user.',
      'Call it with a skill name before starting a task that a listed skill covers, then follow the instructions it returns.',
      'Call it without a name (or with skill "list") to list the available skills with their descriptions.',
      'Do not use it to run commands or read arbitrary files; it only returns skill instructions.',
    ].join(' '),
    inputSchema: skillInput,
    permission: 'read-only',
    execute: async (input, context) => {
      if (input.name !== undefined && input.skill !== undefined && input.name !== input.skill) {
        return errorResult('Give the skill either "name" or "skill" (the same field in two spellings), not both.');
      }
      if (input.arguments !== undefined && input.args !== undefined) {
        return errorResult('Give the arguments either as "arguments" or as "args", not both.');
      }
      const given = input.name ?? input.skill;
      // `{skill: "list"}` lists, unless a skill is really named "list" (then `name: "list"` loads it).
      const name = input.name === undefined && given === LIST ? undefined : given;
      // Skills planted in the call's root never replace the host's (see loadSkills' writableRoot).
      const catalogue = await loadSkills({
        folders: options.folders,
        writableRoot: context.root,
        signal: context.signal,
      });
      if (name === undefined) {
        return textResult(listingText(catalogue), {
          skills: catalogue.skills.map((skill) => skill.name),
          warnings: catalogue.warnings,
          overrides: catalogue.overrides,
        });
      }
      const skill = catalogue.skills.find((candidate) => candidate.name === name);
      if (skill === undefined) {
        const names = catalogue.skills.map((candidate) => candidate.name);
        const close = closeNames(name, names);
        const skipped = catalogue.warnings.find((warning) => basename(dirname(warning.file)) === name);
        const hint =
          close.length > 0
            ? ` Did you mean: ${close.join(', ')}?`
            : names.length > 0
              ? ` Available skills: ${names.join(', ')}.`
              : ' No skills are available.';
        const broken =
          skipped === undefined ? '' : ` A skill folder "${name}" exists but was skipped: ${skipped.message}.`;
        return errorResult(`Unknown skill "${name}".${hint}${broken} Call skill without a name to list them all.`);
      }
      // BoxAgnts hands an `args` string to the skill whole (see ExpandSkillOptions.argumentsAsOneValue).
      const oneValue = input.arguments === undefined && typeof input.args === 'string';
      const argumentText =
        input.arguments ??
        (input.args === undefined || typeof input.args === 'string' ? input.args : argumentString(input.args));
      const expansion = await expandSkill(skill, argumentText ?? '', { argumentsAsOneValue: oneValue });
      if (!expansion.ok) return errorResult(expansion.message);
      return textResult(expansion.text, {
        skill: skill.name,
        file: skill.file,
        supportingFiles: expansion.supportingFiles,
      });
    },
  });
}
