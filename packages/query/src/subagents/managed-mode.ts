import { execFile } from 'node:child_process';
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type AnyTool, agentStatusTool, agentTool, type SubAgentRequest } from '@boxagnts/tools';
import type { QueryOptions } from '../config.js';
import type { SubAgentConfig } from './sub-agent-config.js';

const run = promisify(execFile);

/**
 * The manager's tools: only `agent` and `agent_status` (the host's own versions when it passes
 * them, the native ones otherwise); every other tool is withheld from the manager and given to
 * its executors.
 */
export function managerTools(all: () => readonly AnyTool[]): () => readonly AnyTool[] {
  let cachedSource: readonly AnyTool[] | undefined;
  let cached: readonly AnyTool[] = [];
  return () => {
    const source = all();
    if (source === cachedSource) return cached;
    cachedSource = source;
    const agent = source.find((tool) => tool.name === 'agent') ?? agentTool;
    const status = source.find((tool) => tool.name === 'agent_status') ?? agentStatusTool;
    cached = [agent, status];
    return cached;
  };
}

async function isGitRepository(root: string): Promise<boolean> {
  try {
    const { stdout } = await run('git', ['rev-parse', '--is-inside-work-tree'], { cwd: root });
    return stdout.trim() === 'true';
  } catch {
    return false;
  }
}

/**
 * Gives an executor its own working copy: a detached git worktree of HEAD when the root is a git
 * repository, a copy of the folder otherwise. The executor's report says where its changes are.
 */
export async function prepareWorkingCopy(root: string, id: string): Promise<{ root: string; note: string }> {
  const target = await mkdtemp(join(tmpdir(), `boxagnts-${id}-`));
  if (await isGitRepository(root)) {
    await run('git', ['worktree', 'add', '--detach', '--force', target, 'HEAD'], { cwd: root });
    return { root: target, note: `(This executor worked in the git worktree ${target}; its changes are there.)` };
  }
  await cp(root, target, { recursive: true, errorOnExist: false, force: true });
  return { root: target, note: `(This executor worked in a copy of the folder at ${target}; its changes are there.)` };
}

/** The sub-agent settings of a run: the host's, with managed mode's executor model, limits and isolation. */
export function subAgentConfig(options: QueryOptions): SubAgentConfig {
  const base = options.subAgents ?? {};
  const managed = options.config.managed;
  if (managed === undefined) return base;
  const root = options.toolContext.root;
  return {
    ...base,
    model: managed.executorModel,
    ...(managed.executorProvider ? { provider: managed.executorProvider } : {}),
    defaultMaxTurns: managed.maxExecutorTurns ?? base.defaultMaxTurns ?? 20,
    ...(managed.executorBudgetUsd === undefined ? {} : { budgetUsd: managed.executorBudgetUsd }),
    maxConcurrent: managed.maxConcurrentExecutors ?? base.maxConcurrent ?? 2,
    ...(managed.isolation === 'worktree'
      ? { prepareRoot: (_request: SubAgentRequest, id: string) => prepareWorkingCopy(root, id) }
      : {}),
  };
}
