import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expandSkill } from './expand-skill.js';
import { loadSkills } from './load-skills.js';
import { parseSkillFrontmatter, splitFrontmatter } from './skill-frontmatter.js';

/** The repository's built-in skills: packages/tools/src/skills → extensions/skills. */
const builtinFolder = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'extensions', 'skills');

/** Arguments that satisfy each built-in skill, and text its expansion must then contain. */
const cases: Record<string, { arguments: string; contains: string[] }> = {
  'code-review': {
    arguments: 'main..HEAD security',
    contains: ['Review target: `main..HEAD`', 'Extra focus: security'],
  },
  'commit-message': { arguments: 'Closes #5', contains: ['Extra context from the user: "Closes #5"'] },
  'css-refactor-advisor': {
    arguments: 'src/styles/app.css "dark mode"',
    contains: ['Analyse `src/styles/app.css`', 'Goal given by the user: "dark mode"'],
  },
  'front-component-generator': {
    arguments: `UserAvatar "Shows a user's picture with initials as fallback"`,
    contains: ["**UserAvatar**: Shows a user's picture with initials as fallback", 'Target folder: ""'],
  },
  'test-writer': {
    arguments: 'packages/tools/src/skills/split-arguments.ts',
    contains: ['Write tests for: packages/tools'],
  },
};

describe('built-in skills (extensions/skills)', () => {
  it('are all valid Agent Skills, with no warnings', async () => {
    const catalogue = await loadSkills({ folders: [builtinFolder] });
    expect(catalogue.warnings).toEqual([]);
    expect(catalogue.skills.map((skill) => skill.name)).toEqual(Object.keys(cases).sort());
    expect((await readdir(builtinFolder)).sort()).toEqual(Object.keys(cases).sort());
    for (const skill of catalogue.skills) {
      expect(skill.description.length).toBeLessThanOrEqual(1024);
      expect(skill.whenToUse).toBeTruthy();
      expect(skill.license).toBe('Apache-2.0');
    }
  });

  it.each(Object.entries(cases))(
    'expands %s with its arguments, leaving no placeholder behind',
    async (name, example) => {
      const { skills } = await loadSkills({ folders: [builtinFolder] });
      const skill = skills.find((candidate) => candidate.name === name)!;
      const expansion = await expandSkill(skill, example.arguments);
      expect(expansion.ok).toBe(true);
      if (!expansion.ok) return;
      expect(expansion.text.startsWith(`# Skill: ${name}\nSkill folder: ${join(builtinFolder, name)}\n`)).toBe(true);
      for (const text of example.contains) expect(expansion.text).toContain(text);
      expect(expansion.text).not.toMatch(/\{\{\s*\w+\s*\}\}|\$ARGUMENTS|^---$/m);
      for (const argument of skill.args) expect(expansion.text).not.toContain(`$${argument.name}`);
      expect(expansion.text.split('\n').length).toBeGreaterThan(20);
    },
  );

  it.each(Object.keys(cases))('%s says what is missing when a required argument is not given', async (name) => {
    const { skills } = await loadSkills({ folders: [builtinFolder] });
    const skill = skills.find((candidate) => candidate.name === name)!;
    const required = skill.args.filter((argument) => argument.required);
    const expansion = await expandSkill(skill, '');
    if (required.length === 0) expect(expansion.ok).toBe(true);
    else expect(expansion).toEqual({ ok: false, message: expect.stringContaining(`"${required[0]!.name}"`) });
  });

  it('lists the supporting files of skills that have them', async () => {
    const { skills } = await loadSkills({ folders: [builtinFolder] });
    const review = await expandSkill(skills.find((skill) => skill.name === 'code-review')!, '');
    expect(review.ok && review.supportingFiles).toEqual(['references/checklist.md']);
    const component = await expandSkill(skills.find((skill) => skill.name === 'front-component-generator')!, 'A "b c"');
    expect(component.ok && component.supportingFiles).toEqual(['templates/component.tsx']);
  });

  it('use only frontmatter fields this loader validates', async () => {
    const { readFile } = await import('node:fs/promises');
    for (const name of Object.keys(cases)) {
      const split = splitFrontmatter(await readFile(join(builtinFolder, name, 'SKILL.md'), 'utf8'));
      expect(split).not.toBeNull();
      const parsed = parseSkillFrontmatter(split!.yaml);
      expect(parsed.ok).toBe(true);
    }
  });
});
