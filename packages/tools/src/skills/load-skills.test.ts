import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempFolder, removeTempFolder, writeSkill } from '../test/skill-folders.js';
import { expandSkill } from './expand-skill.js';
import { defaultSkillFolders, loadSkills } from './load-skills.js';
import { formatSkillListing } from './skill-listing.js';

let temp: string;
beforeEach(async () => {
  temp = await makeTempFolder();
});
afterEach(async () => {
  await removeTempFolder(temp);
});

describe('defaultSkillFolders', () => {
  it("puts the global folder and the built-ins before the project folders of the agents' root", () => {
    expect(defaultSkillFolders({ root: '/p', globalFolder: '/home/u/.boxagnts/skills', builtinFolder: '/b' })).toEqual([
      '/home/u/.boxagnts/skills',
      '/b',
      join('/p', '.boxagnts', 'skills'),
      join('/p', '.agents', 'skills'),
      join('/p', '.claude', 'skills'),
    ]);
  });

  it('defaults the global folder to ~/.boxagnts/skills and leaves built-ins out when not given', () => {
    const folders = defaultSkillFolders({ root: '/p' });
    expect(folders).toHaveLength(4);
    expect(folders[0]).toMatch(/\.boxagnts[/\\]skills$/);
  });
});

describe('loadSkills', () => {
  it('loads both formats, sorted by name, with their fields', async () => {
    const folder = join(temp, 'skills');
    await writeSkill(
      folder,
      'zeta',
      'name: zeta\ndescription: Agent Skills one.\nlicense: MIT\nallowed-tools: read grep',
      'Body',
    );
    await writeSkill(
      folder,
      'alpha',
      'name: alpha\ndescription: BoxAgnts one.\nwhen_to_use: Before X.\ntools: [bash, grep]\nargs:\n  - name: target\n    required: true',
      'Body',
    );
    const catalogue = await loadSkills({ folders: [folder] });
    expect(catalogue.warnings).toEqual([]);
    expect(catalogue.skills.map((skill) => skill.name)).toEqual(['alpha', 'zeta']);
    expect(catalogue.skills[0]).toEqual({
      name: 'alpha',
      description: 'BoxAgnts one.',
      whenToUse: 'Before X.',
      allowedTools: ['bash', 'grep'],
      args: [{ name: 'target', required: true }],
      metadata: {},
      directory: join(folder, 'alpha'),
      file: join(folder, 'alpha', 'SKILL.md'),
      source: folder,
    });
    expect(catalogue.skills[1]).toMatchObject({ license: 'MIT', allowedTools: ['read', 'grep'] });
  });

  it('lets earlier folders override later ones and reports which one won', async () => {
    const project = join(temp, 'project');
    const global = join(temp, 'global');
    const builtin = join(temp, 'builtin');
    await writeSkill(project, 'review', 'name: review\ndescription: Project review.', 'P');
    await writeSkill(global, 'review', 'name: review\ndescription: Global review.', 'G');
    await writeSkill(builtin, 'review', 'name: review\ndescription: Built-in review.', 'B');
    await writeSkill(builtin, 'other', 'name: other\ndescription: Only built in.', 'O');
    const catalogue = await loadSkills({ folders: [join(temp, 'missing'), project, global, builtin] });
    expect(catalogue.skills.map((skill) => [skill.name, skill.description])).toEqual([
      ['other', 'Only built in.'],
      ['review', 'Project review.'],
    ]);
    expect(catalogue.overrides).toEqual([
      {
        name: 'review',
        used: join(project, 'review', 'SKILL.md'),
        ignored: [join(global, 'review', 'SKILL.md'), join(builtin, 'review', 'SKILL.md')],
      },
    ]);
    expect(catalogue.warnings).toEqual([]);
  });

  it('skips malformed skills with a warning naming the file and the problem, keeping the others', async () => {
    const folder = join(temp, 'skills');
    await writeSkill(folder, 'good', 'name: good\ndescription: Fine.', 'Body');
    await writeSkill(folder, 'bad-yaml', 'name: bad-yaml\ndescription: [oops', 'Body');
    await writeSkill(folder, 'no-description', 'name: no-description', 'Body');
    await writeSkill(folder, 'wrong-type', 'name: wrong-type\ndescription: d\nargs: {name: x}', 'Body');
    await writeSkill(folder, 'mismatch', 'name: other-name\ndescription: d', 'Body');
    await writeSkill(folder, 'unclosed', 'name: unclosed\ndescription: d\n', 'Body');
    const { writeFile, mkdir } = await import('node:fs/promises');
    await mkdir(join(folder, 'no-frontmatter'));
    await writeFile(join(folder, 'no-frontmatter', 'SKILL.md'), '# Just markdown\n');
    await writeFile(join(folder, 'unclosed', 'SKILL.md'), '---\nname: unclosed\ndescription: d\n');
    await mkdir(join(folder, 'not-a-skill'));
    const catalogue = await loadSkills({ folders: [folder] });
    expect(catalogue.skills.map((skill) => skill.name)).toEqual(['good']);
    const problems = Object.fromEntries(
      catalogue.warnings.map((warning) => [warning.file.slice(folder.length + 1), warning.message]),
    );
    expect(Object.keys(problems).sort()).toEqual(
      ['bad-yaml', 'mismatch', 'no-description', 'no-frontmatter', 'unclosed', 'wrong-type'].map((name) =>
        join(name, 'SKILL.md'),
      ),
    );
    expect(problems[join('bad-yaml', 'SKILL.md')]).toMatch(/^invalid YAML frontmatter: /);
    expect(problems[join('no-description', 'SKILL.md')]).toMatch(/"description" Invalid input/);
    expect(problems[join('wrong-type', 'SKILL.md')]).toMatch(/"args" Invalid input: expected array/);
    expect(problems[join('mismatch', 'SKILL.md')]).toBe(
      '"name" is "other-name" but the folder is "mismatch"; they must match (rename one)',
    );
    expect(problems[join('no-frontmatter', 'SKILL.md')]).toMatch(/must start with a YAML frontmatter block/);
    expect(problems[join('unclosed', 'SKILL.md')]).toMatch(/not closed by a "---" line/);
  });

  it('reads only the frontmatter: a body that fails expansion does not matter to the listing', async () => {
    const folder = join(temp, 'skills');
    const body = `Needs $target.\n${'x'.repeat(2_000_000)}\n`;
    await writeSkill(
      folder,
      'lazy',
      'name: lazy\ndescription: Lazy skill.\nargs:\n  - name: target\n    required: true',
      body,
    );
    const catalogue = await loadSkills({ folders: [folder] });
    expect(catalogue.warnings).toEqual([]);
    expect(catalogue.skills.map((skill) => skill.name)).toEqual(['lazy']);
    expect(JSON.stringify(catalogue)).not.toContain('Needs');
    const expansion = await expandSkill(catalogue.skills[0]!, 'src/a.ts');
    expect(expansion).toEqual({ ok: false, message: expect.stringMatching(/^Skill "lazy" is too large \(\d+ bytes/) });
  });

  it('does not mistake a longer "----" line split across read chunks for the closing line', async () => {
    const folder = join(temp, 'skills');
    const start = 'name: split\ndescription: d\n# ';
    // "---\n" + start + padding + "\n---" ends exactly at byte 4096, the first chunk's end.
    const padding = 'x'.repeat(4096 - 4 - start.length - 4);
    await writeSkill(folder, 'split', `${start}${padding}\n----\nmore: 1`, 'Body');
    const catalogue = await loadSkills({ folders: [folder] });
    expect(catalogue.skills).toEqual([]);
    expect(catalogue.warnings[0]?.message).toMatch(/^invalid YAML frontmatter/);
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(loadSkills({ folders: [temp], signal: controller.signal })).rejects.toThrow('stop');
  });
});

describe('formatSkillListing', () => {
  it('lists one line per skill with description, when to use and arguments', async () => {
    const folder = join(temp, 'skills');
    await writeSkill(
      folder,
      'alpha',
      'name: alpha\ndescription: |\n  Does alpha\n  things.\nwhen_to_use: Before beta.\nargs:\n  - name: target\n    required: true\n  - name: focus',
      'Body that is {{never}} read',
    );
    await writeSkill(folder, 'beta', 'name: beta\ndescription: Does beta.', 'Body');
    const listing = formatSkillListing((await loadSkills({ folders: [folder] })).skills);
    expect(listing.split('\n')).toEqual([
      'Skills (load one with the `skill` tool, passing its name and any arguments, before doing the task it covers):',
      '- alpha: Does alpha things. When to use: Before beta. [args: target focus?]',
      '- beta: Does beta.',
    ]);
  });

  it('says so when there are no skills', () => {
    expect(formatSkillListing([])).toBe('No skills are available.');
  });
});
