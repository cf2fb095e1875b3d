import { realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { isInsideFolder, readConfinedFile } from '@boxagnts/tools';

/** Default cap of the composed AGENTS.md text, in UTF-8 bytes (32 KiB). */
export const AGENTS_MD_MAX_BYTES = 32 * 1024;

/** Largest single AGENTS.md read (1 MiB); a larger file is left out with a warning. */
export const AGENTS_MD_FILE_MAX_BYTES = 1024 * 1024;

/** A file left out of the composed text, and why (a link out of its folder, a hard link, too large). */
export interface AgentsMdWarning {
  path: string;
  message: string;
}

/** Options of {@link composeAgentsMd}. */
export interface ComposeAgentsMdOptions {
  /** The workspace folder; its `AGENTS.md` is the second layer. */
  workspaceDir: string;
  /** The agents' file root; the walk for project files starts here. */
  root: string;
  /** The user's home; the global file is `<home>/.boxagnts/AGENTS.md`. Default `os.homedir()`. */
  home?: string;
  /** Cap in UTF-8 bytes; default {@link AGENTS_MD_MAX_BYTES}. */
  maxBytes?: number;
}

/** One file that went into the composed text. */
export interface AgentsMdSource {
  kind: 'global' | 'workspace' | 'project';
  path: string;
  bytes: number;
}

/** The composed AGENTS.md. */
export interface AgentsMd {
  /** The text for the system prompt ('' when there are no files). */
  text: string;
  /** The files in the order they appear. */
  sources: AgentsMdSource[];
  /** True when the cap cut the text. */
  truncated: boolean;
  /** Files that exist but were not read, each with the reason. */
  warnings: AgentsMdWarning[];
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The folders from the repository root (nearest ancestor with `.git`) down to `start`; only `start` outside a repository. */
async function projectFolders(start: string): Promise<string[]> {
  const chain: string[] = [];
  let current = resolve(start);
  for (;;) {
    chain.push(current);
    if (await exists(join(current, '.git'))) return chain.reverse();
    const parent = dirname(current);
    if (parent === current) return [resolve(start)];
    current = parent;
  }
}

/** The folder a file's real path must stay in, and whether hard links are refused there. */
interface Confinement {
  within: string;
  refuseHardLinks: boolean;
}

async function readConfined(
  path: string,
  confinement: Confinement,
  warnings: AgentsMdWarning[],
): Promise<string | undefined> {
  const read = await readConfinedFile(path, { ...confinement, maxBytes: AGENTS_MD_FILE_MAX_BYTES });
  if (!read.ok) {
    if (read.problem !== 'missing') warnings.push({ path, message: read.message });
    return undefined;
  }
  const text = read.text.replace(/<!--[\s\S]*?-->/g, '').trim();
  return text === '' ? undefined : text;
}

async function realOrResolved(path: string): Promise<string> {
  return realpath(path).catch(() => resolve(path));
}

function cutToBytes(text: string, bytes: number): string {
  const cut = Buffer.from(text, 'utf8').subarray(0, Math.max(0, bytes)).toString('utf8');
  return cut.endsWith('\uFFFD') ? cut.slice(0, -1) : cut;
}

/**
 * Composes the AGENTS.md text for the system prompt, from general to specific: the user's global
 * file (`~/.boxagnts/AGENTS.md`), the workspace's `AGENTS.md`, then the project's files from the
 * repository root (the nearest folder above the agents' root holding `.git`) down to the agents'
 * root. Each file gets a header line naming its source; a file reached twice is used once; HTML
 * comments (`<!-- ... -->`) are left out, so notes to humans stay out of the prompt. No link is
 * followed out of the folder that owns a file (`~/.boxagnts`, the workspace, the repository, and
 * for files inside the agents' root, the root), and a hard-linked file inside the root is not
 * read: such files are left out and named in `warnings`. Past
 * `maxBytes` the text is cut and ends with a note saying so, so the most specific files are the
 * ones cut first: keep them short.
 *
 * @example
 * const { text } = await composeAgentsMd({ workspaceDir: '/ws', root: '/ws/root' });
 */
export async function composeAgentsMd(options: ComposeAgentsMdOptions): Promise<AgentsMd> {
  const home = options.home ?? homedir();
  const maxBytes = options.maxBytes ?? AGENTS_MD_MAX_BYTES;
  const realRoot = await realOrResolved(options.root);
  const inRoot = async (folder: string) => isInsideFolder(realRoot, await realOrResolved(folder));
  // Each file must stay inside the folder that owns it; inside the agents' root (which their tools
  // can write) hard links are refused too, since another name of the file may be outside.
  const confine = async (folder: string, owner: string): Promise<Confinement> =>
    (await inRoot(folder))
      ? { within: options.root, refuseHardLinks: true }
      : { within: owner, refuseHardLinks: false };
  const candidates: { kind: AgentsMdSource['kind']; path: string; label: string; confinement: Confinement }[] = [
    {
      kind: 'global',
      path: join(home, '.boxagnts', 'AGENTS.md'),
      label: '~/.boxagnts/AGENTS.md',
      confinement: { within: join(home, '.boxagnts'), refuseHardLinks: false },
    },
    {
      kind: 'workspace',
      path: join(options.workspaceDir, 'AGENTS.md'),
      label: 'AGENTS.md of the workspace',
      confinement: await confine(options.workspaceDir, options.workspaceDir),
    },
  ];
  const folders = await projectFolders(options.root);
  const repositoryRoot = folders[0] ?? options.root;
  for (const folder of folders) {
    const label = relative(repositoryRoot, join(folder, 'AGENTS.md'));
    candidates.push({
      kind: 'project',
      path: join(folder, 'AGENTS.md'),
      label: `${label} of the project`,
      confinement: await confine(folder, repositoryRoot),
    });
  }

  const seen = new Set<string>();
  const sources: AgentsMdSource[] = [];
  const sections: string[] = [];
  const warnings: AgentsMdWarning[] = [];
  for (const candidate of candidates) {
    const real = await realpath(candidate.path).catch(() => undefined);
    if (real === undefined || seen.has(real)) continue;
    seen.add(real);
    const text = await readConfined(candidate.path, candidate.confinement, warnings);
    if (text === undefined) continue;
    sections.push(`# From ${candidate.label}\n\n${text}`);
    sources.push({ kind: candidate.kind, path: candidate.path, bytes: Buffer.byteLength(text, 'utf8') });
  }

  const full = sections.join('\n\n');
  const fullBytes = Buffer.byteLength(full, 'utf8');
  if (fullBytes <= maxBytes) return { text: full, sources, truncated: false, warnings };
  const note = `\n\n[AGENTS.md truncated: ${fullBytes} bytes exceed the ${maxBytes}-byte cap; the rest was left out.]`;
  const text = `${cutToBytes(full, maxBytes - Buffer.byteLength(note, 'utf8'))}${note}`;
  return { text, sources, truncated: true, warnings };
}
