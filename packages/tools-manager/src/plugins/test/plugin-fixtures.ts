import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The installed zod package folder, linked into fixture projects so plain .mjs plugins can import it. */
const ZOD_DIRECTORY = dirname(createRequire(import.meta.url).resolve('zod/package.json'));

/**
 * A real tool definition as a plugin author writes it in plain JavaScript (zod schema, a result
 * object), for fixture modules; `name` and `text` vary it.
 */
export function toolSource(variable: string, name: string, text = `${name} ran`): string {
  return `export const ${variable} = {
  name: ${JSON.stringify(name)},
  description: 'Answers with a fixed text and the input.',
  inputSchema: z.object({ value: z.string() }),
  permission: 'read-only',
  execute: async ({ value }) => ({ content: [{ type: 'text', text: ${JSON.stringify(text)} + ':' + value }] }),
};
`;
}

/** A temp project folder with `node_modules/zod` linked, where tests write plugin packages and files. */
export interface PluginProject {
  /** The project folder (symlinks resolved). */
  readonly root: string;
  /** Writes a file under the project (folders created) and returns its absolute path. */
  write(path: string, content: string): Promise<string>;
  /** Writes `<folder>/package.json` from an object. */
  writePackageJson(folder: string, packageJson: Record<string, unknown>): Promise<string>;
  /** Removes the project. */
  remove(): Promise<void>;
}

/** Creates a {@link PluginProject} under the OS temp folder. */
export async function createPluginProject(): Promise<PluginProject> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'boxagnts-plugins-')));
  await mkdir(join(root, 'node_modules'), { recursive: true });
  await symlink(ZOD_DIRECTORY, join(root, 'node_modules', 'zod'), 'dir');
  const write = async (path: string, content: string) => {
    const file = join(root, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
    return file;
  };
  return {
    root,
    write,
    writePackageJson: (folder, packageJson) =>
      write(join(folder, 'package.json'), JSON.stringify(packageJson, null, 2)),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
