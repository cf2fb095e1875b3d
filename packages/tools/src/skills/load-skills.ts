import { existsSync } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isInsideFolder, openConfinedFile } from './read-confined-file.js';
import { parseSkillFrontmatter, splitFrontmatter, startsWithFrontmatter } from './skill-frontmatter.js';

/** The file that makes a folder a skill. */
export const SKILL_FILE = 'SKILL.md';
/** Longest frontmatter read while listing; bodies are never read then. */
const MAX_FRONTMATTER_BYTES = 64 * 1024;
const CHUNK_BYTES = 4096;

/** One declared argument of a skill (BoxAgnts `args`). */
export interface SkillArgument {
  name: string;
  description?: string;
  required: boolean;
  /** The value used when a call leaves the argument out (BoxAgnts `default:`). */
  default?: string;
}

/** What is known of a skill before it is used: its frontmatter and where it lives, not its body. */
export interface SkillSummary {
  name: string;
  description: string;
  whenToUse?: string;
  license?: string;
  compatibility?: string;
  /** `allowed-tools` and `tools`, merged. */
  allowedTools: string[];
  args: SkillArgument[];
  metadata: Record<string, string>;
  /** The skill's folder (supporting files are relative to it). */
  directory: string;
  /** The `SKILL.md` path. */
  file: string;
  /** The search folder it was found in. */
  source: string;
  /**
   * True when the search folder is inside the agents' writable root (`LoadSkillsOptions.writableRoot`):
   * such a skill never replaces one of another folder, and its files are read with hard links refused.
   */
  inWritableRoot?: boolean;
}

/** A skill left out of the catalogue, and why. */
export interface SkillWarning {
  file: string;
  message: string;
}

/**
 * Skills of the same name found in several folders: the first folder's wins, and folders inside
 * the agents' writable root come after every other folder.
 */
export interface SkillOverride {
  name: string;
  used: string;
  ignored: string[];
}

/** Every usable skill (sorted by name), the ones skipped, and the name clashes resolved. */
export interface SkillCatalogue {
  skills: SkillSummary[];
  warnings: SkillWarning[];
  overrides: SkillOverride[];
}

/**
 * The folder of the built-in skills that ship with this package (`code-review`, `commit-message`,
 * `css-refactor-advisor`, `front-component-generator`, `test-writer`): `dist/builtin-skills/` of the installed
 * package (copied there from the repository's `extensions/skills/` at build), or `extensions/skills/` itself
 * when running from the repository's sources. Pass it as `builtinFolder` to {@link defaultSkillFolders}.
 * Throws when neither exists, for example in an app bundle that did not copy the folder.
 *
 * @example
 * const folders = defaultSkillFolders({ root, builtinFolder: builtinSkillsFolder() });
 */
export function builtinSkillsFolder(): string {
  // dist/index.js -> dist/builtin-skills/; src/skills/load-skills.ts -> the repository's extensions/skills/.
  const shipped = fileURLToPath(new URL('./builtin-skills/', import.meta.url));
  const repository = fileURLToPath(new URL('../../../../extensions/skills/', import.meta.url));
  for (const folder of [shipped, repository]) if (existsSync(join(folder, 'code-review', SKILL_FILE))) return folder;
  throw new Error(
    `The built-in skills of @boxagnts/tools are not at ${shipped}. Reinstall @boxagnts/tools; if you bundle it into an app, copy node_modules/@boxagnts/tools/dist/builtin-skills/ to that folder, next to the bundle.`,
  );
}

/** Options of {@link defaultSkillFolders}. */
export interface DefaultSkillFoldersOptions {
  /** The project root. */
  root: string;
  /** The user's global skills; default `~/.boxagnts/skills`. */
  globalFolder?: string;
  /** The built-in skills, searched after the global folder: usually {@link builtinSkillsFolder}(). */
  builtinFolder?: string;
  /**
   * A BoxAgnts workspace folder (the one holding `.boxagnts/` and `root/`): its
   * `extensions/skills` is searched, when it exists, after the global folder and before the
   * built-ins, so a workspace's own skill replaces a built-in of the same name.
   */
  workspace?: string;
}

/**
 * The standard search order, first wins: the user's global folder, a BoxAgnts workspace's
 * `extensions/skills` (with `workspace`, when it exists), the built-ins, then the project's `.boxagnts/skills`, `.agents/skills` and `.claude/skills`. The project folders are
 * inside the agents' root, which the agents' own tools can write, so a skill planted there can add
 * a skill but never replace a global or built-in one (the clash is reported in `overrides` and
 * `warnings`). Pass the same `root` as `LoadSkillsOptions.writableRoot` so its files are read with
 * hard links refused as well.
 */
export function defaultSkillFolders(options: DefaultSkillFoldersOptions): string[] {
  const folders = [options.globalFolder ?? join(homedir(), '.boxagnts', 'skills')];
  if (options.workspace !== undefined) {
    const extensions = join(options.workspace, 'extensions', 'skills');
    if (existsSync(extensions)) folders.push(extensions);
  }
  if (options.builtinFolder !== undefined) folders.push(options.builtinFolder);
  folders.push(
    join(options.root, '.boxagnts', 'skills'),
    join(options.root, '.agents', 'skills'),
    join(options.root, '.claude', 'skills'),
  );
  return folders;
}

type HeadRead = { ok: true; yaml: string } | { ok: false; problem: string };

/**
 * Reads a `SKILL.md` only up to the end of its frontmatter (progressive disclosure), refusing a
 * file whose real path leaves its skill folder (and, in the writable root, a hard-linked one).
 */
async function readFrontmatter(file: string, directory: string, inWritableRoot: boolean): Promise<HeadRead> {
  const opened = await openConfinedFile(file, { within: directory, refuseHardLinks: inWritableRoot });
  if (!opened.ok) return { ok: false, problem: opened.message };
  const handle = opened.handle;
  try {
    const decoder = new TextDecoder();
    const buffer = Buffer.alloc(CHUNK_BYTES);
    let text = '';
    let total = 0;
    while (total < MAX_FRONTMATTER_BYTES) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, total);
      const done = bytesRead === 0;
      total += bytesRead;
      text += decoder.decode(buffer.subarray(0, bytesRead), { stream: !done });
      if ((done || text.includes('\n')) && !startsWithFrontmatter(text)) {
        return { ok: false, problem: 'it must start with a YAML frontmatter block ("---" on the first line)' };
      }
      const split = splitFrontmatter(text);
      // A closing "---" at the very end of a chunk may be the start of a longer line: read on.
      if (split !== null && (done || split.body !== '' || text.endsWith('\n'))) return { ok: true, yaml: split.yaml };
      if (done) break;
    }
    return {
      ok: false,
      problem:
        total >= MAX_FRONTMATTER_BYTES
          ? `the frontmatter is not closed within ${MAX_FRONTMATTER_BYTES} bytes`
          : 'the frontmatter is not closed by a "---" line',
    };
  } finally {
    await handle.close();
  }
}

/** Reads one skill's summary, or says why it cannot be used. */
export async function loadSkillSummary(
  directory: string,
  source: string,
  inWritableRoot = false,
): Promise<{ ok: true; skill: SkillSummary } | { ok: false; warning: SkillWarning }> {
  const file = join(directory, SKILL_FILE);
  const head = await readFrontmatter(file, directory, inWritableRoot);
  if (!head.ok) return { ok: false, warning: { file, message: head.problem } };
  const parsed = parseSkillFrontmatter(head.yaml);
  if (!parsed.ok) return { ok: false, warning: { file, message: parsed.problem } };
  const frontmatter = parsed.frontmatter;
  const folderName = basename(directory);
  if (frontmatter.name !== folderName) {
    return {
      ok: false,
      warning: {
        file,
        message: `"name" is "${frontmatter.name}" but the folder is "${folderName}"; they must match (rename one)`,
      },
    };
  }
  const allowedTools = [...new Set([...(frontmatter['allowed-tools'] ?? []), ...(frontmatter.tools ?? [])])];
  return {
    ok: true,
    skill: {
      name: frontmatter.name,
      description: frontmatter.description,
      ...(frontmatter.when_to_use === undefined ? {} : { whenToUse: frontmatter.when_to_use }),
      ...(frontmatter.license === undefined ? {} : { license: frontmatter.license }),
      ...(frontmatter.compatibility === undefined ? {} : { compatibility: frontmatter.compatibility }),
      allowedTools,
      args: (frontmatter.args ?? []).map((argument) => ({ ...argument })),
      metadata: frontmatter.metadata ?? {},
      directory,
      file,
      source,
      ...(inWritableRoot ? { inWritableRoot } : {}),
    },
  };
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * The skill folders (sub-folders holding a `SKILL.md`) of one search folder, sorted. In the
 * writable root a skill folder that is a link out of its search folder is refused with a warning.
 */
async function skillDirectories(folder: string, inWritableRoot: boolean, warnings: SkillWarning[]): Promise<string[]> {
  let names: string[];
  let realFolder: string;
  try {
    names = await readdir(folder);
    realFolder = await realpath(folder);
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      warnings.push({ file: folder, message: `cannot read the skills folder: ${(error as Error).message}` });
    }
    return [];
  }
  const directories: string[] = [];
  for (const name of names.sort()) {
    if (name.startsWith('.')) continue;
    const directory = join(folder, name);
    const file = join(directory, SKILL_FILE);
    try {
      if (!(await stat(file)).isFile()) continue;
      if (inWritableRoot) {
        const realDirectory = await realpath(directory);
        if (!isInsideFolder(realFolder, realDirectory)) {
          warnings.push({
            file,
            message: `the skill folder is a link to ${realDirectory}, outside ${realFolder}; skills in the agents' root must be folders of their own`,
          });
          continue;
        }
      }
      directories.push(directory);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR') {
        warnings.push({ file, message: `cannot read: ${(error as Error).message}` });
      }
    }
  }
  return directories;
}

/** Options of {@link loadSkills}. */
export interface LoadSkillsOptions {
  /** Search folders, first wins (see {@link defaultSkillFolders}). */
  folders: readonly string[];
  /**
   * The agents' writable root (the tools' root). Search folders inside it come after every other
   * folder whatever their place in `folders`, so a skill written there cannot replace a host's
   * skill; their skill folders must not be links out of the search folder, and hard-linked files
   * are refused. The `skill` tool passes its call's root.
   */
  writableRoot?: string;
  signal?: AbortSignal;
}

async function inRoot(folder: string, root: string | undefined): Promise<boolean> {
  if (root === undefined) return false;
  const real = async (path: string) => realpath(path).catch(() => resolve(path));
  return isInsideFolder(await real(root), await real(folder)) || isInsideFolder(resolve(root), resolve(folder));
}

/**
 * Finds every skill in the search folders, reading only frontmatter. A malformed `SKILL.md`, or
 * one that is a link out of its skill folder, is skipped with a warning naming the file and the
 * problem; a skill name found in several folders is taken from the earliest folder (folders in the
 * writable root last) and the clash is reported in `overrides`; a skill of the writable root that
 * a host's skill shadows is reported in `warnings` too.
 *
 * @example
 * const root = process.cwd();
 * const { skills, warnings } = await loadSkills({ folders: defaultSkillFolders({ root }), writableRoot: root });
 */
export async function loadSkills(options: LoadSkillsOptions): Promise<SkillCatalogue> {
  const warnings: SkillWarning[] = [];
  const found = new Map<string, SkillSummary>();
  const ignored = new Map<string, string[]>();
  const tagged = await Promise.all(
    options.folders.map(async (folder) => ({ folder, writable: await inRoot(folder, options.writableRoot) })),
  );
  const ordered = [...tagged.filter((entry) => !entry.writable), ...tagged.filter((entry) => entry.writable)];
  for (const { folder, writable } of ordered) {
    options.signal?.throwIfAborted();
    for (const directory of await skillDirectories(folder, writable, warnings)) {
      let loaded: Awaited<ReturnType<typeof loadSkillSummary>>;
      try {
        loaded = await loadSkillSummary(directory, folder, writable);
      } catch (error) {
        warnings.push({ file: join(directory, SKILL_FILE), message: `cannot read: ${(error as Error).message}` });
        continue;
      }
      if (!loaded.ok) {
        warnings.push(loaded.warning);
        continue;
      }
      const { skill } = loaded;
      const first = found.get(skill.name);
      if (first === undefined) {
        found.set(skill.name, skill);
        continue;
      }
      ignored.set(skill.name, [...(ignored.get(skill.name) ?? []), skill.file]);
      if (writable && first.inWritableRoot !== true) {
        warnings.push({
          file: skill.file,
          message: `not used: a skill in the agents' root never replaces the host's skill "${skill.name}" (${first.file}). Rename the folder and its "name" to use both`,
        });
      }
    }
  }
  const skills = [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
  const overrides = [...ignored.entries()].map(([name, files]) => ({
    name,
    used: found.get(name)!.file,
    ignored: files,
  }));
  return { skills, warnings, overrides };
}
