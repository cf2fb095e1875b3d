import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinSkillsFolder, defaultSkillFolders, loadSkills } from '../index.js';

// The installed layout (dist/builtin-skills/ beside the bundle) is checked on the real tarball by
// scripts/check-packages.mjs; from the sources the function finds the repository's folder.
const repositorySkills = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'extensions', 'skills');
const temp = mkdtempSync(join(tmpdir(), 'builtin-skills-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('builtinSkillsFolder', () => {
  it("finds the repository's extensions/skills from the sources, and defaultSkillFolders searches it", async () => {
    const folder = builtinSkillsFolder();
    expect(folder.replace(/[/\\]$/, '')).toBe(repositorySkills);
    const { skills } = await loadSkills({ folders: defaultSkillFolders({ root: temp, builtinFolder: folder }) });
    expect(skills.map((skill) => skill.name).sort()).toEqual([
      'code-review',
      'commit-message',
      'css-refactor-advisor',
      'front-component-generator',
      'test-writer',
    ]);
  });
});
