import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { boxAgntsStateFiles, openWorkspace, type Workspace, workspacePaths } from '@boxagnts/workspace';
import { CliError } from './cli-error.js';

/** What the management commands print to: stdout and stderr of the bin (tests pass their own). */
export interface CliOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** The options every management command takes. */
export interface CommonOptions {
  dir: string;
  json?: boolean;
}

/**
 * Opens the workspace of an existing folder for one command and closes it after. Unlike `init`, a
 * folder without a `boxagnts.json` is refused with a {@link CliError} instead of being set up, so a
 * mistyped `--dir` never leaves an empty workspace behind; a folder of the Rust BoxAgnts is refused
 * with the import command to run.
 */
export async function withWorkspace<T>(dir: string, use: (workspace: Workspace) => Promise<T>): Promise<T> {
  const folder = resolve(dir);
  const config = workspacePaths(folder).config;
  const found = await stat(config).catch(() => undefined);
  if (found === undefined || !found.isFile()) {
    const boxAgnts = await boxAgntsStateFiles(folder);
    if (boxAgnts.length > 0) {
      throw new CliError(
        `${folder} holds a workspace of the Rust BoxAgnts (.boxagnts/${boxAgnts.join(', .boxagnts/')}) and no ${config}; import it first: run "boxagnts import ${dir}" (add --dry-run to see what it would change).`,
      );
    }
    throw new CliError(`no workspace in ${folder} (no ${config}); run "boxagnts init ${dir}" or pass --dir <folder>.`);
  }
  const workspace = await openWorkspace(folder);
  try {
    return await use(workspace);
  } finally {
    await workspace.close();
  }
}

/** Prints a value as indented JSON with a final newline. */
export function printJson(output: CliOutput, value: unknown): void {
  output.out(`${JSON.stringify(value, null, 2)}\n`);
}
