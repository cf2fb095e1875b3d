import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOutputStyles, parseOutputStyle } from './output-styles.js';

describe('output styles', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'boxagnts-styles-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('lists the built-ins when there is no folder', async () => {
    const styles = await loadOutputStyles(join(dir, 'missing'));
    expect(styles.map((style) => style.name)).toEqual(['default', 'concise', 'explanatory']);
    expect(styles[0]?.prompt).toBe('');
  });

  it('adds user files and lets them replace a built-in', async () => {
    const folder = join(dir, 'output-styles');
    await mkdir(folder);
    await writeFile(
      join(folder, 'pirate.md'),
      '---\nname: pirate\ndescription: "Talks like a pirate"\n---\nSay arr.\n',
    );
    await writeFile(join(folder, 'concise.md'), '---\ndescription: Even shorter\n---\nOne line only.');
    await writeFile(join(folder, 'notes.txt'), 'ignored');
    const styles = await loadOutputStyles(folder);
    expect(styles.map((style) => style.name)).toEqual(['default', 'concise', 'explanatory', 'pirate']);
    expect(styles.find((style) => style.name === 'pirate')).toEqual({
      name: 'pirate',
      description: 'Talks like a pirate',
      prompt: 'Say arr.',
      source: join(folder, 'pirate.md'),
    });
    expect(styles.find((style) => style.name === 'concise')?.prompt).toBe('One line only.');
  });

  it('takes the name from the file when there is no frontmatter', () => {
    expect(parseOutputStyle('Be brief.', '/x/terse.md')).toEqual({
      name: 'terse',
      description: '',
      prompt: 'Be brief.',
      source: '/x/terse.md',
    });
  });

  it('reports broken frontmatter with file and line', () => {
    expect(() => parseOutputStyle('---\nname: a\n', '/x/a.md')).toThrow('/x/a.md:1:1: the frontmatter has no closing');
    expect(() => parseOutputStyle('---\nname: a\ncolour: red\n---\n', '/x/a.md')).toThrow(
      '/x/a.md:3:1: colour: unknown frontmatter key. Allowed: name, description.',
    );
    expect(() => parseOutputStyle('---\nname: Not Valid\n---\n', '/x/a.md')).toThrow('style names are');
  });
});
