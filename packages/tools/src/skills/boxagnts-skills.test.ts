import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { executeTool } from '../execute-tool.js';
import { createSkillTool } from '../native/skill.js';
import { testContext } from '../test/context.js';
import { makeTempFolder, removeTempFolder, writeSkill } from '../test/skill-folders.js';
import { resultText } from '../tool-results.js';
import { defaultSkillFolders } from './load-skills.js';

// BoxAgnts users bring their skills unchanged: argument defaults, the `<workspace>/extensions/skills`
// folder, and the `{skill, args}` call shape (with `skill: "list"`).

/** BoxAgnts' own skills, as shipped (read-only fixtures beside the repository; absent on some machines). */
const FIXTURE_SKILLS = resolve(import.meta.dirname, '../../../../../shared/fixtures/boxagnts/skills');
const haveFixtures = existsSync(join(FIXTURE_SKILLS, 'front-component-generator', 'SKILL.md'));

let temp: string;
let skills: string;
beforeEach(async () => {
  temp = await makeTempFolder();
  skills = join(temp, 'workspace', 'extensions', 'skills');
  await writeSkill(
    skills,
    'component-maker',
    [
      'name: component-maker',
      'description: Make a component.',
      'args:',
      '  - name: description',
      '    required: true',
      '  - name: framework',
      '    required: false',
      '    default: react',
      '  - name: retries',
      '    default: 3',
      '  - name: style',
    ].join('\n'),
    'Build {{description}} for `{{framework}}` ($framework), retries {{retries}}, style "{{style}}".',
  );
});
afterEach(async () => {
  await removeTempFolder(temp);
});

describe('skill argument defaults', () => {
  const tool = () => createSkillTool({ folders: [skills] });

  it('fill an argument the call leaves out (strings and YAML numbers alike)', async () => {
    const result = await executeTool(tool(), { name: 'component-maker', arguments: '"a button"' }, testContext());
    expect(result.isError).toBeUndefined();
    expect(resultText(result)).toContain('Build a button for `react` (react), retries 3, style "".');
  });

  it('give way to a value the call gives, by position or by name', async () => {
    const byPosition = await executeTool(tool(), { name: 'component-maker', arguments: 'modal vue' }, testContext());
    expect(resultText(byPosition)).toContain('Build modal for `vue` (vue), retries 3');
    const byName = await executeTool(
      tool(),
      { name: 'component-maker', arguments: 'modal retries=5 style=flat' },
      testContext(),
    );
    expect(resultText(byName)).toContain('Build modal for `react` (react), retries 5, style "flat".');
  });

  it('are shown in the listing', async () => {
    const listing = resultText(await executeTool(tool(), {}, testContext()));
    expect(listing).toContain('component-maker');
    expect(listing).toContain('framework=react');
  });

  it.skipIf(!haveFixtures)(
    "BoxAgnts' front-component-generator renders its default framework (skipped where ../shared/fixtures/boxagnts is absent)",
    async () => {
      const result = await executeTool(
        createSkillTool({ folders: [FIXTURE_SKILLS] }),
        { name: 'front-component-generator', arguments: '"a button with a loading state"' },
        testContext(),
      );
      expect(result.isError).toBeUndefined();
      expect(resultText(result)).toContain(
        'Generate a complete component for `react` based on `a button with a loading state`.',
      );
      expect(resultText(result)).not.toContain('for ``');
      // The same call in BoxAgnts' own shape.
      const seedShape = await executeTool(
        createSkillTool({ folders: [FIXTURE_SKILLS], name: 'skill-tool' }),
        { skill: 'front-component-generator', args: 'a button with a loading state' },
        testContext(),
      );
      expect(resultText(seedShape)).toContain(
        'Generate a complete component for `react` based on `a button with a loading state`.',
      );
    },
  );
});

describe("BoxAgnts' skill folder", () => {
  it('<workspace>/extensions/skills is searched when the workspace has it', async () => {
    const workspace = join(temp, 'workspace');
    const folders = defaultSkillFolders({ root: join(workspace, 'root'), workspace, globalFolder: join(temp, 'g') });
    expect(folders).toContain(skills);
    const listing = resultText(await executeTool(createSkillTool({ folders }), {}, testContext()));
    expect(listing).toContain('- component-maker: Make a component.');
  });

  it('is left out when the workspace has none', async () => {
    const bare = join(temp, 'bare');
    await mkdir(bare);
    const folders = defaultSkillFolders({ root: join(bare, 'root'), workspace: bare, globalFolder: join(temp, 'g') });
    expect(folders.some((folder) => folder.includes('extensions'))).toBe(false);
  });

  it.skipIf(!haveFixtures)(
    "lists BoxAgnts' five skills from its folder as shipped (skipped where ../shared/fixtures/boxagnts is absent)",
    async () => {
      const result = await executeTool(createSkillTool({ folders: [FIXTURE_SKILLS] }), {}, testContext());
      expect(result.metadata?.skills).toEqual([
        'code-review',
        'css-refactor-advisor',
        'current-weather',
        'front-component-generator',
        'weather-forecast',
      ]);
      expect(result.metadata?.warnings).toEqual([]);
    },
  );
});

describe('the {skill, args} call shape', () => {
  const tool = () => createSkillTool({ folders: [skills] });

  it('loads a skill given as {skill, args}: BoxAgnts hands its args string to the skill whole', async () => {
    const result = await executeTool(
      tool(),
      { skill: 'component-maker', args: 'a modal with a close button' },
      testContext(),
    );
    expect(result.isError).toBeUndefined();
    expect(resultText(result)).toContain('Build a modal with a close button for `react`');
  });

  it('gives $ARGUMENTS the args string as written, as BoxAgnts does', async () => {
    await writeSkill(skills, 'fix-it', 'name: fix-it\ndescription: Fix a thing.', 'Fix: $ARGUMENTS.');
    const result = await executeTool(tool(), { skill: 'fix-it', args: "the login bug (it's urgent)" }, testContext());
    expect(resultText(result)).toContain("Fix: the login bug (it's urgent).");
  });

  it('reads name=value words in an args string by name', async () => {
    const result = await executeTool(
      tool(),
      { skill: 'component-maker', args: "description='a modal' framework=vue" },
      testContext(),
    );
    expect(resultText(result)).toContain('Build a modal for `vue`');
  });

  it('accepts args as a list of words or a map of names', async () => {
    const list = await executeTool(tool(), { skill: 'component-maker', args: ['a modal', 'vue'] }, testContext());
    expect(resultText(list)).toContain('Build a modal for `vue`');
    const map = await executeTool(
      tool(),
      { skill: 'component-maker', args: { description: 'a modal', retries: 7 } },
      testContext(),
    );
    expect(resultText(map)).toContain('Build a modal for `react` (react), retries 7');
  });

  it('lists the skills for skill: "list", as a call without a name does', async () => {
    const listed = await executeTool(tool(), { skill: 'list' }, testContext());
    const plain = await executeTool(tool(), {}, testContext());
    expect(listed.isError).toBeUndefined();
    expect(resultText(listed)).toBe(resultText(plain));
  });

  it('refuses a call that names the skill both ways, saying which to keep', async () => {
    const result = await executeTool(tool(), { name: 'component-maker', skill: 'other' }, testContext());
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('either "name" or "skill"');
  });

  it('can be offered under the name BoxAgnts prompts use', () => {
    expect(createSkillTool({ folders: [skills], name: 'skill-tool' }).name).toBe('skill-tool');
  });
});
