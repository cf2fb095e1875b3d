import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { executeTool } from '../execute-tool.js';
import { testContext } from '../test/context.js';
import { makeTempFolder, removeTempFolder, writeSkill } from '../test/skill-folders.js';
import { resultText } from '../tool-results.js';
import { createSkillTool } from './skill.js';

let temp: string;
let project: string;
let global: string;
beforeEach(async () => {
  temp = await makeTempFolder();
  project = join(temp, 'project', '.boxagnts', 'skills');
  global = join(temp, 'home', '.boxagnts', 'skills');
  await writeSkill(
    project,
    'code-review',
    'name: code-review\ndescription: Project review.\nargs:\n  - name: target\n    required: true',
    'Review {{target}} now ($1).',
    { 'notes.md': 'n' },
  );
  await writeSkill(global, 'code-review', 'name: code-review\ndescription: Global review.', 'Global body');
  await writeSkill(global, 'commit-message', 'name: commit-message\ndescription: Write commits.', 'Commit: $ARGUMENTS');
  await writeSkill(global, 'broken', 'name: broken\ndescription: [', 'x');
});
afterEach(async () => {
  await removeTempFolder(temp);
});

describe('skill tool', () => {
  it('is a read-only tool named "skill"', () => {
    const tool = createSkillTool({ folders: [] });
    expect(tool.name).toBe('skill');
    expect(tool.permission).toBe('read-only');
  });

  it('lists skills without a name, with overrides and skipped skills', async () => {
    const tool = createSkillTool({ folders: [project, global] });
    const result = await executeTool(tool, {}, testContext());
    expect(result.isError).toBeUndefined();
    const text = resultText(result);
    expect(text).toContain('- code-review: Project review. [args: target]\n- commit-message: Write commits.');
    expect(text).toContain(
      `- code-review: using ${join(project, 'code-review', 'SKILL.md')}, ignoring ${join(global, 'code-review', 'SKILL.md')}`,
    );
    expect(text).toContain(`- ${join(global, 'broken', 'SKILL.md')}: invalid YAML frontmatter`);
    expect(result.metadata).toMatchObject({ skills: ['code-review', 'commit-message'] });
  });

  it('expands a skill by name with its arguments, the earliest folder winning', async () => {
    const tool = createSkillTool({ folders: [project, global] });
    const result = await executeTool(tool, { name: 'code-review', arguments: '"src/a b.ts"' }, testContext());
    expect(result.isError).toBeUndefined();
    expect(resultText(result)).toBe(
      [
        '# Skill: code-review',
        `Skill folder: ${join(project, 'code-review')}`,
        'Supporting files (paths relative to the skill folder; read them only when the instructions call for them): notes.md',
        '',
        'Review src/a b.ts now (src/a b.ts).',
        '',
      ].join('\n'),
    );
    expect(result.metadata).toEqual({
      skill: 'code-review',
      file: join(project, 'code-review', 'SKILL.md'),
      supportingFiles: ['notes.md'],
    });
  });

  it('answers a missing required argument with an error naming it', async () => {
    const tool = createSkillTool({ folders: [project, global] });
    const result = await executeTool(tool, { name: 'code-review' }, testContext());
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('Skill "code-review" is missing required argument "target"');
  });

  it('answers an unknown name with close names', async () => {
    const tool = createSkillTool({ folders: [project, global] });
    const result = await executeTool(tool, { name: 'commit' }, testContext());
    expect(result).toMatchObject({ isError: true });
    expect(resultText(result)).toBe(
      'Unknown skill "commit". Did you mean: commit-message? Call skill without a name to list them all.',
    );
    const far = await executeTool(tool, { name: 'deploy-everything' }, testContext());
    expect(resultText(far)).toBe(
      'Unknown skill "deploy-everything". Available skills: code-review, commit-message. Call skill without a name to list them all.',
    );
  });

  it('explains why a skill that exists on disk was skipped', async () => {
    const tool = createSkillTool({ folders: [project, global] });
    const result = await executeTool(tool, { name: 'broken' }, testContext());
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/A skill folder "broken" exists but was skipped: invalid YAML frontmatter/);
  });

  it('says so when no skill folder exists', async () => {
    const tool = createSkillTool({ folders: [join(temp, 'nowhere')] });
    expect(resultText(await executeTool(tool, {}, testContext()))).toBe('No skills are available.');
    expect(resultText(await executeTool(tool, { name: 'x' }, testContext()))).toContain('No skills are available.');
  });

  it('rejects invalid input', async () => {
    const tool = createSkillTool({ folders: [project] });
    const result = await executeTool(tool, { name: 42, arguments: ['a'] }, testContext());
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/Invalid input for tool "skill":\n- name: .*\n- arguments: /);
    expect((await executeTool(tool, { name: '' }, testContext())).isError).toBe(true);
  });

  it('does not run when the run is already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const tool = createSkillTool({ folders: [project] });
    const result = await executeTool(tool, {}, testContext({ signal: controller.signal }));
    expect(result).toMatchObject({ isError: true });
    expect(resultText(result)).toContain('cancelled');
  });
});
