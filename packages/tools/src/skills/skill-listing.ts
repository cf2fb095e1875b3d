import type { SkillSummary } from './load-skills.js';

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `name` (required), `name?` (optional) or `name=default` (optional, with a default). */
function argumentLabel(argument: SkillSummary['args'][number]): string {
  if (argument.default !== undefined) return `${argument.name}=${argument.default}`;
  return argument.required ? argument.name : `${argument.name}?`;
}

/** One line for a skill: `- name: description (When to use: …) [args: …]`. */
export function formatSkillLine(skill: SkillSummary): string {
  let line = `- ${skill.name}: ${oneLine(skill.description)}`;
  if (skill.whenToUse !== undefined && skill.whenToUse.trim() !== '')
    line += ` When to use: ${oneLine(skill.whenToUse)}`;
  if (skill.args.length > 0) {
    line += ` [args: ${skill.args.map(argumentLabel).join(' ')}]`;
  }
  return line;
}

/**
 * The skill listing for the system prompt: one line per skill, built from frontmatter only, so
 * bodies stay out of the prompt until the `skill` tool loads one (progressive disclosure).
 */
export function formatSkillListing(skills: readonly SkillSummary[]): string {
  if (skills.length === 0) return 'No skills are available.';
  return [
    'Skills (load one with the `skill` tool, passing its name and any arguments, before doing the task it covers):',
    ...skills.map(formatSkillLine),
  ].join('\n');
}
