import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDemoRepository, git, PROJECT_FILES } from './project.js';
import { type RefactorResult, removePatches, runManagedRefactor } from './refactor.js';

let repository: string | undefined;
let result: RefactorResult | undefined;
afterEach(async () => {
  if (result) await removePatches(result.patches);
  if (repository) await rm(repository, { recursive: true, force: true });
  repository = undefined;
  result = undefined;
});

describe('the managed-refactor example (offline, on the testkit)', () => {
  it('runs two executors in their own worktrees and hands their changes back as patches that apply', {
    timeout: 60_000,
  }, async () => {
    repository = await createDemoRepository();
    result = await runManagedRefactor({ repository, apply: false, live: false });
    expect(result.outcome.reason).toBe('end_turn');

    // The manager only had agent and agent_status; the executors did the reading and editing.
    const managerTools = new Set(result.events.flatMap((event) => (event.type === 'tool-start' ? [event.name] : [])));
    expect([...managerTools].sort()).toEqual(['agent', 'agent_status']);
    const executorEdits = result.events.flatMap((event) =>
      event.type === 'sub-agent' && event.event.type === 'tool-end' && event.event.name === 'edit' ? [event.event] : [],
    );
    expect(executorEdits.map((edit) => edit.result.isError === true)).toEqual([false, false]);

    // Each executor worked in a worktree that is gone now; the repository is untouched.
    expect((await git(repository, 'worktree', 'list')).trim().split('\n')).toHaveLength(1);
    expect(await git(repository, 'status', '--porcelain')).toBe('');
    expect(await readFile(join(repository, 'src/api.js'), 'utf8')).toBe(PROJECT_FILES['src/api.js']);

    // Two patches came back, each with its diff.
    expect(result.patches).toHaveLength(2);
    expect(result.patches.map((patch) => patch.diff).join('\n')).toContain('+export async function loadData(url) {');
    expect(result.patches.map((patch) => patch.diff).join('\n')).toContain("+import { loadData } from './api.js';");

    // Applied by the host, they give the whole refactor.
    for (const { patch } of result.patches) await git(repository, 'apply', '--index', patch);
    const report = await readFile(join(repository, 'src/report.js'), 'utf8');
    expect(report).toBe(PROJECT_FILES['src/report.js']?.replaceAll('fetchData', 'loadData'));
    expect(await readFile(join(repository, 'src/api.js'), 'utf8')).toBe(
      PROJECT_FILES['src/api.js']?.replace('fetchData', 'loadData'),
    );
    expect((await git(repository, 'diff', '--cached', '--name-only')).trim().split('\n')).toEqual([
      'src/api.js',
      'src/report.js',
    ]);
  });
});
