import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-write.js';

describe('writeFileAtomic', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'boxagnts-atomic-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates and replaces a file with the requested mode, whatever the umask', async () => {
    const file = join(dir, 'secrets.json');
    await writeFileAtomic(file, 'one', { mode: 0o600 });
    expect(await readFile(file, 'utf8')).toBe('one');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await writeFileAtomic(file, 'two');
    expect(await readFile(file, 'utf8')).toBe('two');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('leaves the old file and no temporary file when the rename fails', async () => {
    const file = join(dir, 'config.json');
    await writeFile(file, 'old');
    await expect(
      writeFileAtomic(file, 'new', {
        operations: {
          rename: async () => {
            throw new Error('power lost');
          },
        },
      }),
    ).rejects.toThrow('power lost');
    expect(await readFile(file, 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['config.json']);
  });

  it('leaves the old file when the write fails part-way', async () => {
    const file = join(dir, 'config.json');
    await writeFile(file, 'old');
    await expect(
      writeFileAtomic(file, 'a much longer new content', {
        operations: {
          write: async (handle) => {
            await handle.writeFile('a much');
            throw new Error('ENOSPC');
          },
        },
      }),
    ).rejects.toThrow('ENOSPC');
    expect(await readFile(file, 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['config.json']);
  });
});
