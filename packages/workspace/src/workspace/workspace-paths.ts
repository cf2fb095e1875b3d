import { join, resolve } from 'node:path';
import { CONFIG_FILE_NAME } from '../config/default-config-text.js';

/** The files and folders of a workspace (all absolute). */
export interface WorkspacePaths {
  dir: string;
  /** `boxagnts.json`. */
  config: string;
  /** The workspace's `AGENTS.md`. */
  agentsMd: string;
  /** `root/`: the agents' file root; the tools see nothing outside it. */
  root: string;
  skills: string;
  tools: string;
  sites: string;
  /** `output-styles/`: the user's `*.md` output styles (optional). */
  outputStyles: string;
  /** `.boxagnts/`: state kept out of the agents' root (mode 0700). */
  state: string;
  /** `.boxagnts/secrets.json` (mode 0600). */
  secrets: string;
}

/**
 * The layout of the workspace at `dir`. The database and the secrets live in `.boxagnts/`, outside
 * `root/`, and wasm-tools' path policy also protects `.boxagnts/secrets.json` and `.boxagnts/*.db*`
 * should a root ever include the workspace folder.
 */
export function workspacePaths(dir: string): WorkspacePaths {
  const base = resolve(dir);
  return {
    dir: base,
    config: join(base, CONFIG_FILE_NAME),
    agentsMd: join(base, 'AGENTS.md'),
    root: join(base, 'root'),
    skills: join(base, 'skills'),
    tools: join(base, 'tools'),
    sites: join(base, 'sites'),
    outputStyles: join(base, 'output-styles'),
    state: join(base, '.boxagnts'),
    secrets: join(base, '.boxagnts', 'secrets.json'),
  };
}
