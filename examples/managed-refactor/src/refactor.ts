import { rm } from 'node:fs/promises';
import { createAnthropicMessagesProvider } from '@boxagnts/api';
import { type QueryEvent, type QueryOutcome, runQuery } from '@boxagnts/query';
import { startMockServer } from '@boxagnts/testkit';
import { createToolSet } from '@boxagnts/tools-manager';
import { createSandboxToolSource } from '@boxagnts/wasm-tools';
import { git } from './project.js';
import { EXECUTOR_MODEL, MANAGER_MODEL, refactorScript } from './script.js';

const TASK =
  'Rename the function fetchData to loadData everywhere in this repository. You are the manager: give each file ' +
  'that uses it to its own executor (agent with run_in_background: true), wait for all of them with agent_status, ' +
  'then say what changed.';

/** One executor's change as it came back to the manager. */
export interface HandedBackPatch {
  agentId: string;
  /** The patch file the executor's worktree left in the temp folder. */
  patch: string;
  /** The diff quoted in the executor's report. */
  diff: string;
}

export interface RefactorResult {
  outcome: QueryOutcome;
  patches: HandedBackPatch[];
  /** `git diff --cached` of the repository after the patches were applied (empty with `apply: false`). */
  appliedDiff: string;
  events: QueryEvent[];
  live: boolean;
}

export interface RefactorOptions {
  /** The git repository to refactor. */
  repository: string;
  /** Apply the executors' patches to the repository's index and work tree (default true). */
  apply?: boolean;
  live?: boolean;
  print?: (line: string) => void;
}

const APPLY = /git -C (\S+) apply --index (\S+\.patch)/;

/** The patches of the executors' reports (`agent` / `agent_status` results), in the order they came back. */
function handedBack(events: readonly QueryEvent[]): HandedBackPatch[] {
  const patches: HandedBackPatch[] = [];
  for (const event of events) {
    if (event.type !== 'tool-end' || (event.name !== 'agent' && event.name !== 'agent_status')) continue;
    const text = event.result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
    const match = APPLY.exec(text);
    if (match === null) continue;
    const input = event.input as { id?: string };
    const diff = text.slice(text.indexOf('The diff:)') + 'The diff:)'.length).trim();
    patches.push({ agentId: input.id ?? '', patch: match[2] as string, diff });
  }
  return patches;
}

/**
 * Managed mode with worktree isolation: the manager sees only `agent` and `agent_status`; each
 * executor runs on the executor model in its own detached git worktree with the sandboxed file
 * tools, and whatever it changed comes back as a diff and a patch file; the repository itself is
 * untouched until the host applies the patches (`git apply --index`).
 */
export async function runManagedRefactor(options: RefactorOptions): Promise<RefactorResult> {
  const print = options.print ?? (() => undefined);
  const live = options.live ?? process.env.ANTHROPIC_API_KEY !== undefined;
  const mock = live ? undefined : await startMockServer({ script: refactorScript() });
  const provider = createAnthropicMessagesProvider(mock ? { baseURL: mock.url, apiKey: 'offline-not-secret' } : {});
  print(
    live ? `model: Claude (${MANAGER_MODEL}, executors on ${EXECUTOR_MODEL})` : `model: the testkit at ${mock?.url}`,
  );
  const sandbox = createSandboxToolSource({ bash: false, jsExec: false, webFetch: false });
  const tools = await createToolSet({
    sources: [sandbox],
    allow: ['read', 'glob', 'grep', 'edit'],
    // Rules are matched against each executor's own root (its worktree), so this allows edits under src/ there.
    permissions: { rules: { allow: ['edit(src/**)'] } },
  });
  const events: QueryEvent[] = [];
  try {
    const run = runQuery({
      provider,
      messages: [{ role: 'user', content: TASK }],
      tools: () => tools.tools(),
      toolContext: { root: options.repository, sessionId: 'managed-refactor' },
      config: {
        model: MANAGER_MODEL,
        maxTurns: 10,
        budgetUsd: 2,
        managed: {
          executorModel: EXECUTOR_MODEL,
          maxExecutorTurns: 10,
          maxConcurrentExecutors: 2,
          executorBudgetUsd: 0.5,
          isolation: 'worktree',
        },
      },
    });
    let outcome: QueryOutcome;
    for (;;) {
      const next = await run.next();
      if (next.done) {
        outcome = next.value;
        break;
      }
      const event = next.value;
      events.push(event);
      if (event.type === 'tool-start') print(`manager -> ${event.name} ${JSON.stringify(event.input).slice(0, 100)}`);
      if (event.type === 'sub-agent' && event.event.type === 'tool-start') {
        print(`  [${event.agentId}] -> ${event.event.name} ${JSON.stringify(event.event.input).slice(0, 100)}`);
      }
    }
    const patches = handedBack(events);
    let appliedDiff = '';
    if (options.apply ?? true) {
      for (const { patch } of patches) await git(options.repository, 'apply', '--index', patch);
      appliedDiff = await git(options.repository, 'diff', '--cached');
    }
    return { outcome, patches, appliedDiff, events, live };
  } finally {
    await tools.close();
    await mock?.close();
  }
}

/** Deletes the patch files the executors left in the temp folder. */
export async function removePatches(patches: readonly HandedBackPatch[]): Promise<void> {
  await Promise.all(patches.map(({ patch }) => rm(patch, { force: true })));
}
