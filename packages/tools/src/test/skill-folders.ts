import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A fresh temp folder for a test's skills; remove it with {@link removeTempFolder}. */
export function makeTempFolder(prefix = 'boxagnts-skills-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Removes a folder made by {@link makeTempFolder}. */
export function removeTempFolder(folder: string): Promise<void> {
  return rm(folder, { recursive: true, force: true });
}

/**
 * Writes `<folder>/<name>/SKILL.md` with the given frontmatter lines and body, plus any supporting
 * files (paths relative to the skill folder). Returns the skill's folder.
 */
export async function writeSkill(
  folder: string,
  name: string,
  frontmatter: string,
  body: string,
  files: Record<string, string> = {},
): Promise<string> {
  const directory = join(folder, name);
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, 'SKILL.md'), `---\n${frontmatter}\n---\n${body}`);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(directory, path)), { recursive: true });
    await writeFile(join(directory, path), content);
  }
  return directory;
}
