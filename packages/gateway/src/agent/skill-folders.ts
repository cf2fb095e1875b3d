import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Workspace } from '@boxagnts/workspace';

/**
 * The skill folders of a workspace agent: the configured ones (`skills.folders`, default
 * `skills/`), then BoxAgnts' own skill folder `<workspace>/extensions/skills` when the workspace
 * has it, so a BoxAgnts user's skills are found where BoxAgnts keeps them.
 */
export function workspaceSkillFolders(workspace: Workspace): string[] {
  const folders = [...workspace.config.skills.folders];
  const extensions = join(workspace.paths.dir, 'extensions', 'skills');
  if (!folders.includes(extensions) && existsSync(extensions)) folders.push(extensions);
  return folders;
}
