import { chmod, cp, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSkills } from '@boxagnts/tools';
import { describe, expect, it } from 'vitest';
import { openWorkspace } from '../index.js';
import { writeBoxAgntsWorkspace } from './boxagnts-fixture.test-support.js';
import { importBoxAgntsWorkspace } from './import-workspace.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, '..', '..', '..', '..', '..', 'shared', 'fixtures', 'boxagnts', 'skills');
const shipped = await readdir(fixtures).catch(() => undefined);
if (shipped === undefined)
  console.warn(`BoxAgnts' real skills skipped: ${fixtures} is absent (the shared fixtures are not on this machine).`);

// Skipped, with the reason printed above, where ../shared/fixtures/boxagnts is absent.
describe.skipIf(shipped === undefined)("importBoxAgntsWorkspace with BoxAgnts' own skills", () => {
  it('copies the five skills as shipped into skills/, where they load', async () => {
    const { dir, remove } = await writeBoxAgntsWorkspace();
    try {
      const skills = join(dir, 'extensions', 'skills');
      await rm(skills, { recursive: true, force: true });
      // A temporary copy, as a BoxAgnts workspace holds them; the shared folder itself stays untouched.
      await cp(fixtures, skills, { recursive: true });
      // The shared files are read-only; the copy must be removable by a user who is not root.
      for (const entry of await readdir(skills, { recursive: true, withFileTypes: true })) {
        await chmod(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o644);
      }
      await chmod(skills, 0o755);
      const report = await importBoxAgntsWorkspace(dir, { env: { GITHUB_TOKEN: 'x', TENANT: 't' } });
      expect(report.failed).toEqual([]);
      const created = report.items
        .filter((item) => item.kind === 'skill' && item.action === 'create')
        .map((item) => item.name);
      expect(created.sort()).toEqual([...(shipped ?? [])].sort());
      const workspace = await openWorkspace(dir, { env: { GITHUB_TOKEN: 'x', TENANT: 't' } });
      try {
        const catalogue = await loadSkills({ folders: [workspace.paths.skills] });
        expect(catalogue.skills.map((skill) => skill.name).sort()).toEqual([...(shipped ?? [])].sort());
      } finally {
        await workspace.close();
      }
    } finally {
      await remove();
    }
  });
});
