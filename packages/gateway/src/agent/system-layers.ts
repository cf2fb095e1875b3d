import { loadSkills } from '@boxagnts/tools';
import type { Workspace } from '@boxagnts/workspace';
import { workspaceSkillFolders } from './skill-folders.js';

/** The workspace's parts of the system prompt, read when a run starts. */
export interface SystemLayers {
  /** The composed AGENTS.md text (global, workspace, project); undefined when empty. */
  agentsMd: string | undefined;
  /** The output style's instruction; undefined for a style without one. */
  outputStyle: string | undefined;
  /** One line per skill (`- name: description`); undefined when there are none. */
  skills: string | undefined;
}

/**
 * Reads the layers the loop puts in the system prompt around the agent definition's own prompt:
 * AGENTS.md, the configured output style and the skill listing (skills of folders inside `root/`
 * come after every other folder's and never replace a host skill of the same name).
 */
export async function readSystemLayers(workspace: Workspace): Promise<SystemLayers> {
  const [agentsMd, style, catalogue] = await Promise.all([
    workspace.agentsMd(),
    workspace.outputStyle(),
    // Folders inside root/ are the agents' own: their skills never replace a host's.
    loadSkills({ folders: workspaceSkillFolders(workspace), writableRoot: workspace.paths.root }),
  ]);
  const skillLines = catalogue.skills.map((skill) => `- ${skill.name}: ${skill.description}`);
  const agentsText = agentsMd.text.trim();
  return {
    agentsMd: agentsText === '' ? undefined : agentsText,
    outputStyle: style.prompt?.trim() ? style.prompt : undefined,
    skills: skillLines.length === 0 ? undefined : skillLines.join('\n'),
  };
}
