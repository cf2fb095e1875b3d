// 5,000 generated hostile paths through a root full of links, judged against the kernel itself: whatever
// file `stat` really reaches decides what the rules must say. No allow rule or accept-edits may
// admit a path that reaches a file outside the root, and a deny on a folder must catch every
// spelling that reaches a file in it.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPermissionEngine } from './permission-engine.js';

let base: string;
let root: string;
const outsideInodes = new Set<number>();
const protectedInodes = new Set<number>();

function file(target: string, text: string, inodes?: Set<number>): void {
  writeFileSync(target, text);
  inodes?.add(statSync(target).ino);
}

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'tm-path-oracle-')));
  root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  for (const folder of [root, path.join(root, 'a'), path.join(root, 'protected'), outside, path.join(outside, 'sub')]) {
    mkdirSync(folder, { recursive: true });
  }
  file(path.join(root, 'a', 'x.txt'), 'inside');
  file(path.join(root, 'protected', 'prod.env'), 'prod', protectedInodes);
  file(path.join(outside, 'secret.txt'), 'secret', outsideInodes);
  file(path.join(outside, 'sub', 'x.txt'), 'outside x', outsideInodes);
  file(path.join(base, 'x.txt'), 'base x', outsideInodes);
  symlinkSync(outside, path.join(root, 'link_out'));
  symlinkSync('protected', path.join(root, 'link_prot'));
  symlinkSync('..', path.join(root, 'rel_up'));
  symlinkSync('../link_out', path.join(root, 'a', 'back'));
  symlinkSync('../protected', path.join(root, 'a', 'prot_up'));
  symlinkSync(path.join(outside, 'new.txt'), path.join(root, 'dangling'));
  symlinkSync('loop2', path.join(root, 'loop1'));
  symlinkSync('loop1', path.join(root, 'loop2'));
  symlinkSync(path.join(root, 'a'), path.join(outside, 'into_root'));
});
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const SEGMENTS = [
  'a',
  'protected',
  'link_out',
  'link_prot',
  'rel_up',
  'back',
  'prot_up',
  'dangling',
  'loop1',
  '..',
  '.',
  'root',
  'sub',
  'into_root',
  'outside',
  'PROTECTED',
];
const FILES = ['x.txt', 'prod.env', 'secret.txt'];

/** The inode the kernel reaches for this spelling (relative to the root), or undefined. */
function reached(spelling: string): number | undefined {
  const absolute = path.isAbsolute(spelling) ? spelling : `${root}/${spelling}`;
  try {
    const stats = statSync(absolute);
    return stats.isFile() ? stats.ino : undefined;
  } catch {
    return undefined;
  }
}

describe('rules against the kernel, over generated link paths', () => {
  it('5,000 spellings: nothing outside is admitted, nothing protected gets through', () => {
    const random = generator(20261201);
    const allowing = createPermissionEngine({ rules: { allow: ['edit(**)'] } });
    const accepting = createPermissionEngine({ mode: 'accept-edits' });
    const denying = createPermissionEngine({ rules: { deny: ['read(protected/**)'] } });
    const edit = { name: 'edit', permission: 'write' } as const;
    const read = { name: 'read', permission: 'read-only' } as const;
    let outsideSeen = 0;
    let protectedSeen = 0;
    const escapes: string[] = [];
    for (let index = 0; index < 5_000; index++) {
      const length = Math.floor(random() * 5);
      const segments = Array.from({ length }, () => SEGMENTS[Math.floor(random() * SEGMENTS.length)] as string);
      segments.push(FILES[Math.floor(random() * FILES.length)] as string);
      const relative = segments.join('/');
      const spelling = random() < 0.2 ? `${root}/${relative}` : relative;
      // What the kernel reaches, and what a tool that resolves `..` as text first reaches.
      const inodes = [reached(spelling), reached(path.resolve(root, spelling))];
      const input = { file_path: spelling };
      if (inodes.some((inode) => inode !== undefined && outsideInodes.has(inode))) {
        outsideSeen++;
        if (allowing.evaluate(edit, input, { root }).behavior === 'allow') escapes.push(`allow rule: ${spelling}`);
        if (accepting.evaluate(edit, input, { root }).behavior === 'allow') escapes.push(`accept-edits: ${spelling}`);
      }
      if (inodes.some((inode) => inode !== undefined && protectedInodes.has(inode))) {
        protectedSeen++;
        if (denying.evaluate(read, input, { root }).behavior !== 'deny') escapes.push(`deny rule: ${spelling}`);
      }
    }
    if (process.env.ORACLE_REPORT)
      console.log(`outside ${outsideSeen}, protected ${protectedSeen}, escapes ${escapes.length}`);
    expect(escapes).toEqual([]);
    // The generator must actually reach both kinds of files, or the test proves nothing.
    expect(outsideSeen).toBeGreaterThan(50);
    expect(protectedSeen).toBeGreaterThan(50);
  });
});
