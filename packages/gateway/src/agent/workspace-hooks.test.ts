import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { QueryEvent } from '@boxagnts/query';
import { isToolSetError } from '@boxagnts/tools-manager';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';
import { createAgent } from './create-agent.js';

let current: TestWorkspace | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const readCall = {
  steps: [
    { content: [{ type: 'tool_call' as const, name: 'read', input: { file_path: 'notes.md' } }] },
    { text: 'done' },
  ],
};

/** Writes an executable hook script that refuses every call with `message`. */
async function writeRefusingScript(file: string, message: string): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, `#!/bin/sh\necho "${message}" >&2\nexit 2\n`);
  await chmod(file, 0o755);
}

async function expectUnsafeHook(): Promise<void> {
  const agent = createAgent({ workspace: current!.workspace });
  const error = await agent.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isToolSetError(error) && error.reason).toBe('unsafe-hook');
  expect(String((error as Error).message)).toContain("inside the agents' root");
}

describe('command hooks of a workspace', () => {
  it('run in the workspace folder by default, so ./hooks/check-command.sh is the workspace one', async () => {
    const hooks = { beforeTool: [{ matcher: 'read', command: './hooks/check-command.sh' }] };
    current = await createTestWorkspace(readCall, { hooks });
    await writeRefusingScript(join(current.dir, 'hooks', 'check-command.sh'), 'WORKSPACE-HOOK refused the read');
    await writeFile(join(current.workspace.paths.root, 'notes.md'), 'secret notes\n');
    const agent = await createAgent({ workspace: current.workspace });
    const run = agent.run('Read my notes');
    const events: QueryEvent[] = [];
    for await (const event of run) events.push(event);
    const toolEnd = events.find((event) => event.type === 'tool-end');
    const text = toolEnd?.type === 'tool-end' ? JSON.stringify(toolEnd.result.content) : '';
    expect(text).toContain('WORKSPACE-HOOK refused the read');
    expect(text).not.toContain('secret notes');
    await agent.close();
  });

  it('resolve a relative cwd against the workspace folder', async () => {
    const hooks = { beforeTool: [{ matcher: 'read', command: './check.sh', cwd: 'hooks' }] };
    current = await createTestWorkspace(readCall, { hooks });
    await writeRefusingScript(join(current.dir, 'hooks', 'check.sh'), 'CWD-HOOK refused the read');
    const agent = await createAgent({ workspace: current.workspace });
    const run = agent.run('Read my notes');
    const events: QueryEvent[] = [];
    for await (const event of run) events.push(event);
    const toolEnd = events.find((event) => event.type === 'tool-end');
    expect(toolEnd?.type === 'tool-end' && JSON.stringify(toolEnd.result.content)).toContain('CWD-HOOK refused');
    await agent.close();
  });

  it('refuse a hook script inside root/, where the agents can write it', async () => {
    const hooks = { beforeTool: [{ matcher: 'read', command: './root/check.sh' }] };
    current = await createTestWorkspace(readCall, { hooks });
    await writeRefusingScript(join(current.workspace.paths.root, 'check.sh'), 'planted');
    await expectUnsafeHook();
  });

  it('refuse a hook whose working folder is root/ or inside it', async () => {
    for (const cwd of ['root', 'root/sub', './root/../root']) {
      const hooks = { beforeTool: [{ matcher: 'read', command: 'true', cwd }] };
      current = await createTestWorkspace(readCall, { hooks });
      await mkdir(join(current.workspace.paths.root, 'sub'), { recursive: true });
      await expectUnsafeHook();
      await current.close();
      current = undefined;
    }
  });
});
