import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempFolder, removeTempFolder, writeSkill } from '../test/skill-folders.js';
import { expandSkill, listSupportingFiles, resolveSkillArguments, substituteArguments } from './expand-skill.js';
import { loadSkills, type SkillSummary } from './load-skills.js';

let temp: string;
beforeEach(async () => {
  temp = await makeTempFolder();
});
afterEach(async () => {
  await removeTempFolder(temp);
});

async function skillFrom(frontmatter: string, body: string, files: Record<string, string> = {}): Promise<SkillSummary> {
  await writeSkill(temp, 'demo', `name: demo\ndescription: Demo.\n${frontmatter}`, body, files);
  const { skills, warnings } = await loadSkills({ folders: [temp] });
  expect(warnings).toEqual([]);
  return skills[0]!;
}

const twoArgs = [
  { name: 'target', required: true },
  { name: 'focus', description: 'what to weigh', required: false },
];

describe('resolveSkillArguments', () => {
  it('fills declared arguments in order from the split words', () => {
    expect(resolveSkillArguments({ name: 's', args: twoArgs }, `src/a.ts "error handling" extra`)).toEqual({
      ok: true,
      value: {
        named: { target: 'src/a.ts', focus: 'error handling' },
        positional: ['src/a.ts', 'error handling', 'extra'],
      },
    });
  });

  it('takes name=value words by name and the rest in order', () => {
    expect(resolveSkillArguments({ name: 's', args: twoArgs }, `focus="speed and memory" lib/b.ts other=1`)).toEqual({
      ok: true,
      value: { named: { focus: 'speed and memory', target: 'lib/b.ts' }, positional: ['lib/b.ts', 'other=1'] },
    });
  });

  it('leaves missing optional arguments empty', () => {
    expect(resolveSkillArguments({ name: 's', args: twoArgs }, 'x')).toMatchObject({
      ok: true,
      value: { named: { target: 'x', focus: '' } },
    });
  });

  it('names the missing required argument and the skill arguments', () => {
    const resolved = resolveSkillArguments({ name: 'review', args: twoArgs }, '  ');
    expect(resolved).toEqual({
      ok: false,
      message:
        'Skill "review" is missing required argument "target"; its arguments, in order: target (required), focus (optional: what to weigh). Pass them in "arguments", in order or as name=value (quote values with spaces).',
    });
    expect(resolveSkillArguments({ name: 'r', args: twoArgs }, 'target=""').ok).toBe(false);
  });
});

describe('substituteArguments', () => {
  const resolved = { named: { target: 'src/$1.ts', focus: '' }, positional: ['src/$1.ts', 'two'] };

  it('replaces $ARGUMENTS, {{name}}, $name and $N in one pass', () => {
    const text = substituteArguments(
      'all=$ARGUMENTS t={{target}} t2={{ target }} t3=$target f=[$focus] p1=$1 p2=$2 p3=[$3]',
      'src/$1.ts two',
      resolved,
    );
    expect(text).toBe('all=src/$1.ts two t=src/$1.ts t2=src/$1.ts t3=src/$1.ts f=[] p1=src/$1.ts p2=two p3=[]');
  });

  it('leaves unknown names such as shell variables alone', () => {
    expect(substituteArguments('echo $HOME {{unknown}} $targets $2', 'x', resolved)).toBe(
      'echo $HOME {{unknown}} $targets two',
    );
  });

  it('appends the arguments when the body has no placeholder', () => {
    expect(substituteArguments('Do it.\n', ' a b ', { named: {}, positional: ['a', 'b'] })).toBe(
      'Do it.\n\nARGUMENTS: a b\n',
    );
    expect(substituteArguments('Do it.\n', '', { named: {}, positional: [] })).toBe('Do it.\n');
  });
});

describe('listSupportingFiles', () => {
  it('lists files relative to the skill folder, sorted, without SKILL.md, hidden files or node_modules', async () => {
    await writeSkill(temp, 'demo', 'name: demo\ndescription: d', 'b', {
      'scripts/run.sh': '#!/bin/sh',
      'references/api.md': '# API',
      'references/deep/more.md': 'x',
      '.hidden': 'x',
      'node_modules/pkg/index.js': 'x',
      'a.txt': 'x',
    });
    expect(await listSupportingFiles(join(temp, 'demo'))).toEqual({
      files: ['a.txt', 'references/api.md', 'scripts/run.sh', 'references/deep/more.md'],
      omitted: 0,
    });
    expect(await listSupportingFiles(join(temp, 'demo'), 2)).toEqual({
      files: ['a.txt', 'references/api.md'],
      omitted: 2,
    });
  });
});

describe('expandSkill', () => {
  it('strips the frontmatter, fills arguments and names the folder and supporting files', async () => {
    const skill = await skillFrom(
      'allowed-tools: read grep\nargs:\n  - name: target\n    required: true',
      '# Demo\nCheck {{target}} against references/rules.md ($ARGUMENTS).\n',
      { 'references/rules.md': '- rule' },
    );
    const expansion = await expandSkill(skill, 'src/x.ts');
    expect(expansion).toEqual({
      ok: true,
      supportingFiles: ['references/rules.md'],
      text: [
        '# Skill: demo',
        `Skill folder: ${join(temp, 'demo')}`,
        'Supporting files (paths relative to the skill folder; read them only when the instructions call for them): references/rules.md',
        'Tools this skill expects: read, grep',
        '',
        '# Demo',
        'Check src/x.ts against references/rules.md (src/x.ts).',
        '',
      ].join('\n'),
    });
  });

  it('says relative paths are relative to the folder when there are no supporting files', async () => {
    const skill = await skillFrom('', 'Just do it.');
    const expansion = await expandSkill(skill);
    expect(expansion.ok && expansion.text).toBe(
      `# Skill: demo\nSkill folder: ${join(temp, 'demo')}\nRelative paths in these instructions are relative to the skill folder.\n\nJust do it.\n`,
    );
  });

  it('fails with a clear message when a required argument is missing', async () => {
    const skill = await skillFrom('args:\n  - name: target\n    required: true', 'x');
    expect(await expandSkill(skill, '')).toEqual({
      ok: false,
      message: expect.stringContaining('Skill "demo" is missing required argument "target"'),
    });
  });

  it('fails when the file was removed or broken after listing', async () => {
    const skill = await skillFrom('', 'x');
    await writeFile(skill.file, 'no frontmatter any more');
    expect(await expandSkill(skill)).toEqual({
      ok: false,
      message: `Skill "demo" (${skill.file}) no longer has a valid frontmatter block.`,
    });
    await removeTempFolder(skill.directory);
    expect(await expandSkill(skill)).toEqual({
      ok: false,
      message: expect.stringMatching(/^Skill "demo" could not be read from .*ENOENT/),
    });
  });
});
