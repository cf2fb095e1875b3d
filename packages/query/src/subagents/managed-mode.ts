import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { type AnyTool, agentStatusTool, agentTool, type SubAgentRequest } from '@boxagnts/tools';
import type { QueryOptions } from '../config.js';
import type { PreparedRoot, SubAgentConfig } from './sub-agent-config.js';

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

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

async function isGitRepository(root: string): Promise<boolean> {
  try {
    return (await git(root, ['rev-parse', '--is-inside-work-tree'])).trim() === 'true';
  } catch {
    return false;
  }
}

/** Characters of an executor's diff quoted in its report; the whole diff is always in the patch file. */
export const WORKTREE_DIFF_CHARS = 20_000;

/** Identity of the worktree's own commits (never pushed, never on a branch). */
const COMMITTER = ['-c', 'user.name=boxagnts', '-c', 'user.email=boxagnts@localhost', '-c', 'commit.gpgsign=false'];

/**
 * A detached git worktree holding the current working state of `root`'s repository: the last
 * commit plus uncommitted changes (staged or not) and untracked files that are not ignored,
 * committed there as the executor's starting point.
 */
async function gitWorkingCopy(root: string, id: string, target: string): Promise<PreparedRoot> {
  const top = (await git(root, ['rev-parse', '--show-toplevel'])).trim();
  const prefix = (await git(root, ['rev-parse', '--show-prefix'])).trim();
  // A commit of the uncommitted tracked changes, made without touching the work tree or the stash list.
  const stashed = (await git(top, ['stash', 'create'])).trim();
  await git(top, ['worktree', 'add', '--detach', '--force', target, stashed === '' ? 'HEAD' : stashed]);
  const untracked = (await git(top, ['ls-files', '--others', '--exclude-standard', '-z'])).split('\0').filter(Boolean);
  for (const file of untracked) {
    await mkdir(dirname(join(target, file)), { recursive: true });
    await cp(join(top, file), join(target, file), { force: true, recursive: true });
  }
  await git(target, ['add', '-A']);
  await git(target, [...COMMITTER, 'commit', '--no-verify', '--allow-empty', '-q', '-m', 'boxagnts: starting point']);
  const base = (await git(target, ['rev-parse', 'HEAD'])).trim();
  const executorRoot = prefix === '' ? target : join(target, prefix);
  return {
    root: executorRoot,
    note: `(This executor worked in the git worktree ${target}.)`,
    finish: async () => {
      try {
        await git(target, ['add', '-A']);
        const diff = await git(target, ['diff', '--cached', '--binary', base]);
        if (diff.trim() === '') return { note: '(This executor changed no files.)' };
        const patch = join(tmpdir(), `boxagnts-${id}-${Date.now()}.patch`);
        await writeFile(patch, diff);
        const shown =
          diff.length > WORKTREE_DIFF_CHARS
            ? `${diff.slice(0, WORKTREE_DIFF_CHARS)}\n[... ${diff.length - WORKTREE_DIFF_CHARS} more characters in the patch file]`
            : diff;
        return {
          note:
            `(This executor worked in its own git worktree, now removed. Its change is not applied yet: apply it with ` +
            `\`git -C ${top} apply --index ${patch}\`. The diff:)\n\n${shown}`,
        };
      } finally {
        await git(top, ['worktree', 'remove', '--force', target]).catch(() =>
          rm(target, { recursive: true, force: true }),
        );
        await git(top, ['worktree', 'prune']).catch(() => undefined);
      }
    },
  };
}

/**
 * Gives an executor its own working copy: a detached git worktree of the current working state
 * (uncommitted and untracked files included) when the root is in a git repository, removed when
 * the executor ends, its change handed back as a diff (and a patch file) in the report; a copy of
 * the folder otherwise, kept where the report says.
 */
export async function prepareWorkingCopy(root: string, id: string): Promise<PreparedRoot> {
  const target = await mkdtemp(join(tmpdir(), `boxagnts-${id}-`));
  if (await isGitRepository(root)) {
    await rm(target, { recursive: true, force: true });
    return gitWorkingCopy(root, id, target);
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
