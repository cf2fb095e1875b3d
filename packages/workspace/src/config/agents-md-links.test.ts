import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeAgentsMd } from './agents-md.js';

// Attacks through files the agents' tools can write: AGENTS.md in the root made a link (or a hard
// link) to a host file, as in issue 12 where a component renamed a link over AGENTS.md.
describe('composeAgentsMd against planted links', () => {
  let base: string;
  let home: string;
  let workspaceDir: string;
  let root: string;
  let hostFile: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'boxagnts-agents-md-links-'));
    home = join(base, 'home');
    workspaceDir = join(base, 'workspace');
    root = join(workspaceDir, 'root');
    await mkdir(join(home, '.boxagnts'), { recursive: true });
    await mkdir(root, { recursive: true });
    hostFile = join(base, 'host-secret.txt');
    await writeFile(hostFile, 'HOST SECRET: do not put me in a prompt');
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const compose = () => composeAgentsMd({ home, workspaceDir, root });

  it('leaves out an AGENTS.md in the root that a rename turned into a link to a host file', async () => {
    await writeFile(join(root, 'AGENTS.md'), 'harmless');
    await symlink(hostFile, join(root, 'prepared-link'));
    await rename(join(root, 'prepared-link'), join(root, 'AGENTS.md'));
    const result = await compose();
    expect(result.text).not.toContain('HOST SECRET');
    expect(result.sources).toEqual([]);
    expect(result.warnings).toEqual([{ path: join(root, 'AGENTS.md'), message: expect.stringMatching(/outside/) }]);
  });

  it('leaves out relative links that climb out of the root, and links to the workspace files above it', async () => {
    await writeFile(join(workspaceDir, 'AGENTS.md'), 'WORKSPACE');
    await symlink('../../host-secret.txt', join(root, 'AGENTS.md'));
    let result = await compose();
    expect(result.text).toBe('# From AGENTS.md of the workspace\n\nWORKSPACE');
    expect(result.warnings.map((warning) => warning.path)).toEqual([join(root, 'AGENTS.md')]);
    await rm(join(root, 'AGENTS.md'));
    await symlink(join(workspaceDir, 'boxagnts.json'), join(root, 'AGENTS.md'));
    await writeFile(join(workspaceDir, 'boxagnts.json'), '{ "model": "secret config" }');
    result = await compose();
    expect(result.text).not.toContain('secret config');
  });

  it('leaves out a hard-linked AGENTS.md in the root, whose other name is a host file', async () => {
    await link(hostFile, join(root, 'AGENTS.md'));
    const result = await compose();
    expect(result.text).toBe('');
    expect(result.warnings[0]?.message).toMatch(/2 hard links/);
  });

  it('leaves out a workspace or global AGENTS.md linked out of its folder', async () => {
    await symlink(hostFile, join(workspaceDir, 'AGENTS.md'));
    await symlink(hostFile, join(home, '.boxagnts', 'AGENTS.md'));
    const result = await compose();
    expect(result.text).toBe('');
    expect(result.warnings).toHaveLength(1); // one real file, reached once
  });

  it('does not hang on a FIFO named AGENTS.md', async () => {
    execFileSync('mkfifo', [join(root, 'AGENTS.md')]);
    const result = await compose();
    expect(result.text).toBe('');
    expect(result.warnings[0]?.message).toMatch(/not a regular file/);
  });

  it('still reads a link that stays inside the root', async () => {
    await mkdir(join(root, 'docs'));
    await writeFile(join(root, 'docs', 'agents.md'), 'ROOT DOCS');
    await symlink('docs/agents.md', join(root, 'AGENTS.md'));
    expect((await compose()).text).toBe('# From AGENTS.md of the project\n\nROOT DOCS');
  });

  it('never reads the host file while AGENTS.md is swapped between a file and an outward link', async () => {
    const file = join(root, 'AGENTS.md');
    await writeFile(join(root, 'good.md'), 'GOOD');
    let stop = false;
    // The attacker: rename a fresh outward link, then a fresh copy of the file, over AGENTS.md.
    const attacker = (async () => {
      let round = 0;
      while (!stop) {
        const next = join(root, `next-${round++}`);
        if (round % 2 === 0) await symlink(hostFile, next);
        else await writeFile(next, 'GOOD');
        await rename(next, file);
      }
    })();
    let leaks = 0;
    let good = 0;
    for (let attempt = 0; attempt < 400; attempt++) {
      const { text } = await compose();
      if (text.includes('HOST SECRET')) leaks++;
      if (text.includes('GOOD')) good++;
    }
    stop = true;
    await attacker;
    expect(leaks).toBe(0);
    expect(good).toBeGreaterThan(0);
  });
});
