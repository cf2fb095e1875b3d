import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withWorkspace } from './cli-workspace.js';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'cli-workspace-'));
  folders.push(folder);
  return folder;
}

describe('withWorkspace (the management commands)', () => {
  it('names the import for a folder that holds a BoxAgnts workspace, and creates nothing', async () => {
    const folder = await tempFolder();
    await mkdir(join(folder, '.boxagnts'));
    await writeFile(join(folder, '.boxagnts', 'settings.json'), '{"model":"anthropic/claude-sonnet-4-6"}');
    await expect(withWorkspace(folder, async () => 'opened')).rejects.toThrow(/boxagnts import/);
    await expect(stat(join(folder, 'boxagnts.json'))).rejects.toThrow();
  });

  it('says to run init for an empty folder', async () => {
    const folder = await tempFolder();
    await expect(withWorkspace(folder, async () => 'opened')).rejects.toThrow(/boxagnts init/);
  });
});
