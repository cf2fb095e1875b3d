// The worker's synchronous wasi:filesystem, attacked directly (the same objects the guest gets
// through its import object): escapes by `..`, absolute paths and symlinks, link creation,
// writes through a read-only root, and the file operations the tools rely on.
import { lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './test-fixtures.js';

interface Stream {
  blockingRead(length: bigint): Uint8Array;
  blockingWriteAndFlush(bytes: Uint8Array): void;
}
interface Listing {
  readDirectoryEntry(): { name: string } | undefined;
}
type Flags = Record<string, boolean>;
/** The descriptor methods these tests call (the guest calls them through the glue the same way). */
interface Handle {
  read(length: number, offset: number): [Uint8Array, boolean];
  write(bytes: Uint8Array, offset: number): bigint;
  openAt(pathFlags: Flags, path: string, openFlags: Flags, descriptorFlags: Flags): Handle;
  statAt(pathFlags: Flags, path: string): { type: string };
  stat(): { size: bigint };
  symlinkAt(target: string, path: string): void;
  linkAt(pathFlags: Flags, path: string, other: Handle, newPath: string): void;
  unlinkFileAt(path: string): void;
  createDirectoryAt(path: string): void;
  removeDirectoryAt(path: string): void;
  renameAt(path: string, other: Handle, newPath: string): void;
  setSize(size: number): void;
  writeViaStream(offset: number): Stream;
  appendViaStream(): Stream;
  readViaStream(offset: number): Stream;
  readDirectory(): Listing;
}
interface FilesystemImports {
  preopens: { getDirectories(): Array<[Handle, string]> };
}
type CreateImports = (root: string | undefined, readOnly: boolean) => FilesystemImports;

const moduleUrl = new URL('./worker-filesystem.mjs', import.meta.url).href;
const NO_FOLLOW = { symlinkFollow: false };
const FOLLOW = { symlinkFollow: true };
const READ = { read: true };
const DISPOSE: symbol = Symbol.dispose ?? Symbol.for('dispose');

/** Drops a handle the way the glue does when the guest drops it. */
function drop(handle: object): void {
  (handle as Record<symbol, (() => void) | undefined>)[DISPOSE]?.();
}

/** Runs `action` and returns `ok` or the WASI error code it threw. */
function outcome(action: () => unknown): string {
  try {
    action();
    return 'ok';
  } catch (error) {
    return typeof error === 'string' ? error : `threw ${String(error)}`;
  }
}

describe('worker filesystem (synchronous wasi:filesystem)', () => {
  let createFilesystemImports: CreateImports;
  let parent: { path: string; remove: () => Promise<void> };
  let root: string;
  let outside: string;

  beforeAll(async () => {
    ({ createFilesystemImports } = (await import(moduleUrl)) as { createFilesystemImports: CreateImports });
    parent = await tempDir('sync-fs');
    root = join(parent.path, 'root');
    outside = join(parent.path, 'outside.txt');
    await mkdir(join(root, 'sub'), { recursive: true });
    await writeFile(join(root, 'inside.txt'), 'inside text');
    await writeFile(join(root, 'sub', 'deep.txt'), 'deep');
    await writeFile(outside, 'host secret');
    await symlink('../outside.txt', join(root, 'escape-relative'));
    await symlink(outside, join(root, 'escape-absolute'));
    await symlink('sub/deep.txt', join(root, 'inner-link'));
    await symlink('loop-b', join(root, 'loop-a'));
    await symlink('loop-a', join(root, 'loop-b'));
    await symlink('..', join(root, 'sub', 'up'));
    await symlink('../../outside.txt', join(root, 'sub', 'out'));
  });

  afterAll(async () => {
    await parent.remove();
  });

  function rootOf(readOnly: boolean): Handle {
    const [entry] = createFilesystemImports(root, readOnly).preopens.getDirectories();
    if (entry === undefined) throw new Error('no preopen');
    expect(entry[1]).toBe('/');
    return entry[0];
  }

  function readAll(file: Handle): string {
    const [bytes, end] = file.read(1024, 0);
    expect(end).toBe(false);
    return Buffer.from(bytes).toString('utf8');
  }

  it('gives no preopen at all without a root', () => {
    expect(createFilesystemImports(undefined, true).preopens.getDirectories()).toEqual([]);
  });

  it('reads a file, with a short read at its end and eof on an empty read', () => {
    const file = rootOf(true).openAt(NO_FOLLOW, 'inside.txt', {}, READ);
    expect(readAll(file)).toBe('inside text');
    const [rest, end] = file.read(16, 11);
    expect([rest.length, end]).toEqual([0, true]);
    drop(file);
    expect(outcome(() => file.read(4, 0))).toBe('bad-descriptor');
  });

  it('refuses .. above the root and absolute paths', () => {
    const directory = rootOf(false);
    for (const path of ['../outside.txt', '/etc/passwd', outside, 'sub/../../outside.txt', 'sub/../..']) {
      expect(outcome(() => directory.openAt(NO_FOLLOW, path, {}, READ))).toBe('not-permitted');
    }
    expect(outcome(() => directory.statAt(FOLLOW, '../outside.txt'))).toBe('not-permitted');
  });

  it('refuses symlinks that lead out, absolute or relative, and stops loops', () => {
    const directory = rootOf(false);
    for (const path of ['escape-relative', 'escape-absolute', 'sub/out', 'sub/up/escape-relative']) {
      expect(outcome(() => directory.openAt(FOLLOW, path, {}, READ))).toBe('not-permitted');
    }
    expect(outcome(() => directory.statAt(FOLLOW, 'escape-absolute'))).toBe('not-permitted');
    // `..` in the path is taken lexically first, as the shim does: this names <root>/sub/outside.txt.
    expect(outcome(() => directory.openAt(FOLLOW, 'sub/up/../outside.txt', {}, READ))).toBe('no-entry');
    expect(outcome(() => directory.openAt(FOLLOW, 'loop-a', {}, READ))).toBe('loop');
    // Not following the last link: the link itself is refused by O_NOFOLLOW, never its target.
    expect(outcome(() => directory.openAt(NO_FOLLOW, 'escape-relative', {}, READ))).toBe('loop');
  });

  it('follows a symlink that stays inside the root', () => {
    const directory = rootOf(true);
    const file = directory.openAt(FOLLOW, 'inner-link', {}, READ);
    expect(readAll(file)).toBe('deep');
    expect(directory.statAt(NO_FOLLOW, 'inner-link').type).toBe('symbolic-link');
    expect(directory.statAt(FOLLOW, 'inner-link').type).toBe('regular-file');
  });

  it('never creates symlinks or hard links, even in a writable root', async () => {
    const directory = rootOf(false);
    expect(outcome(() => directory.symlinkAt('inside.txt', 'new-link'))).toBe('not-permitted');
    expect(outcome(() => directory.linkAt(NO_FOLLOW, 'inside.txt', directory, 'hard-link'))).toBe('not-permitted');
    expect((await readdir(root)).filter((name) => name.includes('link') && !name.startsWith('inner'))).toEqual([]);
    expect((await lstat(join(root, 'inside.txt'))).nlink).toBe(1);
  });

  it('refuses every change through a read-only root and what is opened below it', async () => {
    const directory = rootOf(true);
    const attempts: Array<[string, () => unknown]> = [
      ['create', () => directory.openAt(NO_FOLLOW, 'new.txt', { create: true }, READ)],
      ['truncate', () => directory.openAt(NO_FOLLOW, 'inside.txt', { truncate: true }, READ)],
      ['write open', () => directory.openAt(NO_FOLLOW, 'inside.txt', {}, { write: true })],
      ['unlink', () => directory.unlinkFileAt('inside.txt')],
      ['mkdir', () => directory.createDirectoryAt('made')],
      ['rmdir', () => directory.removeDirectoryAt('sub')],
      ['rename', () => directory.renameAt('inside.txt', directory, 'moved.txt')],
    ];
    const sub = directory.openAt(NO_FOLLOW, 'sub', { directory: true }, READ);
    const file = directory.openAt(NO_FOLLOW, 'inside.txt', {}, READ);
    attempts.push(
      ['nested create', () => sub.openAt(NO_FOLLOW, 'n.txt', { create: true }, { write: true })],
      ['write', () => file.write(new Uint8Array([1]), 0)],
      ['set size', () => file.setSize(0)],
      ['write stream', () => file.writeViaStream(0)],
      ['append stream', () => file.appendViaStream()],
    );
    expect(attempts.map(([label, action]) => `${label}: ${outcome(action)}`)).toEqual(
      attempts.map(([label]) => `${label}: read-only`),
    );
    expect((await readdir(root)).sort()).toEqual(
      ['escape-absolute', 'escape-relative', 'inner-link', 'inside.txt', 'loop-a', 'loop-b', 'sub'].sort(),
    );
    expect(await readFile(join(root, 'inside.txt'), 'utf8')).toBe('inside text');
  });

  it('writes through a writable root, by call and by stream, and lists folders', async () => {
    const scratch = await tempDir('sync-fs-rw');
    try {
      const [entry] = createFilesystemImports(scratch.path, false).preopens.getDirectories();
      if (entry === undefined) throw new Error('no preopen');
      const [directory] = entry;
      const flags = { create: true, truncate: true };
      const file = directory.openAt(NO_FOLLOW, 'out.txt', flags, { read: true, write: true });
      expect(file.write(new TextEncoder().encode('hello '), 0)).toBe(6n);
      const stream = file.writeViaStream(6);
      stream.blockingWriteAndFlush(new TextEncoder().encode('world'));
      drop(stream);
      const input = file.readViaStream(0);
      expect(Buffer.from(input.blockingRead(64n)).toString()).toBe('hello world');
      expect(outcome(() => input.blockingRead(64n))).toBe('threw [object Object]');
      drop(input);
      expect(file.stat().size).toBe(11n);
      drop(file);
      directory.createDirectoryAt('made');
      const listing = directory.openAt(NO_FOLLOW, '.', { directory: true }, READ).readDirectory();
      const names: string[] = [];
      for (let entry = listing.readDirectoryEntry(); entry; entry = listing.readDirectoryEntry()) {
        names.push(entry.name);
      }
      drop(listing);
      expect(names.sort()).toEqual(['made', 'out.txt']);
      expect(await readFile(join(scratch.path, 'out.txt'), 'utf8')).toBe('hello world');
      expect(outcome(() => directory.openAt(NO_FOLLOW, 'made', {}, { write: true }))).toBe('is-directory');
    } finally {
      await scratch.remove();
    }
  });
});
