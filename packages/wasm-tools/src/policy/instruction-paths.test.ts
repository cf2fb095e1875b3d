// The instruction files are protected by default, at any depth for AGENTS.md, and a folder counts
// as holding a protected path only when it really holds one (patterns with `**` are checked on disk).
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPathSync, createPathPolicy, DEFAULT_INSTRUCTION_PATHS, DEFAULT_PROTECTED_PATHS } from './path-policy.js';
import { MAX_PROTECTED_SCAN_ENTRIES } from './protected-scan.js';

let root: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'instruction-paths-')));
  await mkdir(join(root, 'src/deep'), { recursive: true });
  await mkdir(join(root, 'plain/nested'), { recursive: true });
  await mkdir(join(root, 'big'), { recursive: true });
  await writeFile(join(root, 'src/deep/AGENTS.md'), 'rules');
  await writeFile(join(root, 'plain/nested/readme.md'), 'readme');
  await Promise.all(
    Array.from({ length: MAX_PROTECTED_SCAN_ENTRIES + 1 }, (_, index) => writeFile(join(root, 'big', `${index}`), '')),
  );
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('instruction paths', () => {
  it('are part of the default protected paths', () => {
    for (const path of DEFAULT_INSTRUCTION_PATHS) expect(DEFAULT_PROTECTED_PATHS).toContain(path);
  });

  it.each([
    'AGENTS.md',
    'agents.md',
    'a/b/c/AGENTS.md',
    '.agents/skills/review/SKILL.md',
    'skills/x/SKILL.md',
    'boxagnts.json',
    'boxagnts.jsonc',
    'output-styles/terse.md',
    'hooks/check-command.sh',
  ])('refuse writing %s but allow reading it', (path) => {
    const policy = createPathPolicy({ root });
    expect(checkPathSync(policy, path, 'write')).toMatchObject({ ok: false, code: 'protected' });
    expect(checkPathSync(policy, path, 'read').ok).toBe(true);
  });

  it.each(['AGENTS.md.bak', 'src/skills/x.ts', 'src/hooks/use-thing.ts', 'docs/boxagnts.json.example'])(
    'leave %s writable',
    (path) => {
      expect(checkPathSync(createPathPolicy({ root }), path, 'write').ok).toBe(true);
    },
  );

  it('count a folder as holding one only when it does', () => {
    const policy = createPathPolicy({ root });
    expect(policy.containsProtected('src')).toBe(true);
    expect(policy.containsProtected('src/deep')).toBe(true);
    expect(policy.containsProtected('plain')).toBe(false);
    expect(policy.containsProtected('missing')).toBe(false);
    expect(policy.containsProtected('.')).toBe(true);
    // Too many entries to look at: refused rather than guessed.
    expect(policy.containsProtected('big')).toBe(true);
  });

  it('can be left out by a host that lets tools edit them', () => {
    const policy = createPathPolicy({
      root,
      protectedPaths: DEFAULT_PROTECTED_PATHS.filter((path) => !DEFAULT_INSTRUCTION_PATHS.includes(path)),
    });
    expect(checkPathSync(policy, 'AGENTS.md', 'write').ok).toBe(true);
    expect(checkPathSync(policy, '.git/config', 'write').ok).toBe(false);
    expect(policy.containsProtected('src')).toBe(false);
  });
});
