import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeAgentsMd } from './agents-md.js';

describe('composeAgentsMd', () => {
  let base: string;
  let home: string;
  let repository: string;
  let workspaceDir: string;
  let root: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'boxagnts-agents-md-'));
    home = join(base, 'home');
    repository = join(base, 'repo');
    workspaceDir = join(repository, 'workspace');
    root = join(workspaceDir, 'root');
    await mkdir(join(home, '.boxagnts'), { recursive: true });
    await mkdir(join(repository, '.git'), { recursive: true });
    await mkdir(root, { recursive: true });
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('orders general to specific with a header per file and reads each file once', async () => {
    await writeFile(join(base, 'AGENTS.md'), 'ABOVE THE REPOSITORY');
    await writeFile(join(home, '.boxagnts', 'AGENTS.md'), 'GLOBAL');
    await writeFile(join(repository, 'AGENTS.md'), 'REPOSITORY');
    await writeFile(join(workspaceDir, 'AGENTS.md'), 'WORKSPACE <!-- a note for humans -->');
    await writeFile(join(root, 'AGENTS.md'), 'ROOT');
    const result = await composeAgentsMd({ home, workspaceDir, root });
    expect(result.text).toBe(
      [
        '# From ~/.boxagnts/AGENTS.md\n\nGLOBAL',
        '# From AGENTS.md of the workspace\n\nWORKSPACE',
        '# From AGENTS.md of the project\n\nREPOSITORY',
        '# From workspace/root/AGENTS.md of the project\n\nROOT',
      ].join('\n\n'),
    );
    expect(result.sources.map((source) => source.kind)).toEqual(['global', 'workspace', 'project', 'project']);
    expect(result.truncated).toBe(false);
  });

  it('uses only the root outside a repository and skips empty and missing files', async () => {
    await rm(join(repository, '.git'), { recursive: true });
    await writeFile(join(repository, 'AGENTS.md'), 'NOT REACHED');
    await writeFile(join(workspaceDir, 'AGENTS.md'), '   \n');
    await writeFile(join(root, 'AGENTS.md'), 'ROOT');
    const result = await composeAgentsMd({ home, workspaceDir, root });
    expect(result.text).toBe('# From AGENTS.md of the project\n\nROOT');
    expect(result.sources).toEqual([{ kind: 'project', path: join(root, 'AGENTS.md'), bytes: 4 }]);
  });

  it('does not repeat a file reached through a symlink', async () => {
    await writeFile(join(workspaceDir, 'AGENTS.md'), 'SHARED');
    await symlink(join(workspaceDir, 'AGENTS.md'), join(root, 'AGENTS.md'));
    const result = await composeAgentsMd({ home, workspaceDir, root });
    expect(result.text.match(/SHARED/g)).toHaveLength(1);
  });

  it('cuts at the cap and says so', async () => {
    await writeFile(join(home, '.boxagnts', 'AGENTS.md'), 'G'.repeat(300));
    await writeFile(join(root, 'AGENTS.md'), 'ü'.repeat(300));
    const result = await composeAgentsMd({ home, workspaceDir, root, maxBytes: 400 });
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(result.text, 'utf8')).toBeLessThanOrEqual(400);
    expect(result.text.startsWith('# From ~/.boxagnts/AGENTS.md')).toBe(true);
    expect(result.text).toMatch(
      /\n\n\[AGENTS\.md truncated: \d+ bytes exceed the 400-byte cap; the rest was left out\.\]$/,
    );
    expect(result.text).not.toContain('\uFFFD');
  });

  it('is empty when there are no files', async () => {
    expect(await composeAgentsMd({ home, workspaceDir, root })).toEqual({
      text: '',
      sources: [],
      truncated: false,
      warnings: [],
    });
  });
});
