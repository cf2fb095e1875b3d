import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { isConfigError, openWorkspace } from '../index.js';
import { writeBoxAgntsWorkspace } from './boxagnts-fixture.test-support.js';
import { isBoxAgntsWorkspaceError } from './boxagnts-workspace-error.js';

describe('openWorkspace on a BoxAgnts workspace', () => {
  it('refuses with a typed error naming the import, and creates nothing beside it', async () => {
    const { dir, remove } = await writeBoxAgntsWorkspace();
    try {
      const before = (await readdir(dir)).sort();
      const error = await openWorkspace(dir).then(
        async (workspace) => {
          await workspace.close();
          return undefined;
        },
        (caught: unknown) => caught,
      );
      expect(isBoxAgntsWorkspaceError(error)).toBe(true);
      expect(isConfigError(error)).toBe(true);
      expect((error as Error).message).toContain(`boxagnts import "${dir}"`);
      expect((error as Error).message).toContain('importBoxAgntsWorkspace');
      expect((error as { found: string[] }).found).toEqual(expect.arrayContaining(['settings.json', 'sessions']));
      expect((await readdir(dir)).sort()).toEqual(before);
    } finally {
      await remove();
    }
  });
});
