import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { QueryEvent } from '@boxagnts/query';
import { afterEach, describe, expect, it } from 'vitest';
import { isGatewayError } from '../gateway-error.js';
import { CANARY_KEY, createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';
import { createAgent } from './create-agent.js';

let current: TestWorkspace | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const readThenAnswer = {
  steps: [
    {
      content: [
        { type: 'text' as const, text: 'Reading notes.md.' },
        { type: 'tool_call' as const, name: 'read', input: { file_path: 'notes.md' } },
      ],
      usage: { input: 1200, output: 30 },
    },
    { text: 'The notes say: buy milk.', usage: { input: 1400, output: 12 } },
  ],
};

describe('createAgent', () => {
  it('runs the default agent of a workspace with the sandboxed tools rooted at root/, storing history and usage', async () => {
    current = await createTestWorkspace(readThenAnswer);
    await writeFile(join(current.workspace.paths.root, 'notes.md'), 'buy milk\n');
    await writeFile(current.workspace.paths.agentsMd, 'Always answer in one sentence. MARKER-AGENTS-MD\n');
    const agent = await createAgent({ workspace: current.workspace });
    expect(agent.definition.name).toBe('build');
    expect(agent.modelReference).toBe('anthropic/claude-sonnet-4-6');
    const run = agent.run('What do my notes say?');
    const events: QueryEvent[] = [];
    for await (const event of run) events.push(event);
    const outcome = await run.outcome;
    expect(outcome.reason).toBe('end_turn');
    expect(outcome.text).toBe('The notes say: buy milk.');
    const toolEnd = events.find((event) => event.type === 'tool-end');
    expect(toolEnd?.type === 'tool-end' && JSON.stringify(toolEnd.result.content)).toContain('buy milk');

    const session = await current.workspace.store.sessions.get(run.sessionId);
    expect(session?.agent).toBe('build');
    expect(session?.messageCount).toBe(4);
    const byModel = await current.workspace.store.usage.report('model');
    expect(byModel).toHaveLength(1);
    expect(byModel[0]?.calls).toBe(2);
    expect(byModel[0]?.inputTokens).toBe(2600);

    const first = current.mock.requests[0];
    expect(first?.headers.authorization ?? first?.headers['x-api-key']).toContain(CANARY_KEY.slice(-4));
    expect(first?.rawBody).toContain('MARKER-AGENTS-MD');
    await agent.close();
  });

  it('continues a session: the second run sends the stored history', async () => {
    current = await createTestWorkspace({ steps: [{ text: 'First answer.' }, { text: 'Second answer.' }] });
    const agent = await createAgent({ workspace: current.workspace });
    const first = agent.run('One', { sessionId: 'chat-1' });
    expect((await first.outcome).text).toBe('First answer.');
    const second = agent.run('Two', { sessionId: 'chat-1' });
    expect((await second.outcome).text).toBe('Second answer.');
    const body = current.mock.requests[1]?.body as { messages: { role: string }[] };
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect((await current.workspace.store.sessions.get('chat-1'))?.messageCount).toBe(4);
    await agent.close();
  });

  it('applies the agent access level: plan (read-only) gets no write tools', async () => {
    current = await createTestWorkspace({ steps: [{ text: 'ok' }] });
    const agent = await createAgent({ workspace: current.workspace, agent: 'plan' });
    const names = agent.tools.tools().map((tool) => tool.name);
    expect(names).toContain('read');
    expect(names).not.toContain('write');
    expect(names).not.toContain('edit');
    await agent.close();
  });

  it('refuses an unknown agent with a typed error that lists the agents', async () => {
    current = await createTestWorkspace({ steps: [] });
    const error = await createAgent({ workspace: current.workspace, agent: 'nope' }).catch((caught: unknown) => caught);
    expect(isGatewayError(error) && error.reason).toBe('not-found');
    expect((error as Error).message).toContain('build');
  });

  it('refuses an unknown provider in the model reference with a configuration error', async () => {
    current = await createTestWorkspace({ steps: [] });
    const error = await createAgent({ workspace: current.workspace, model: 'nowhere/model-x' }).catch(
      (caught: unknown) => caught,
    );
    expect(isGatewayError(error) && error.reason).toBe('configuration');
    expect((error as Error).message).toContain('nowhere');
  });

  it('opens a workspace folder by path and closes it with the agent', async () => {
    current = await createTestWorkspace({ steps: [{ text: 'from a path' }] });
    const dir = current.dir;
    await current.workspace.close();
    const agent = await createAgent({ workspace: dir });
    expect((await agent.run('hi').outcome).text).toBe('from a path');
    await agent.close();
    expect(agent.workspace.closed).toBe(true);
    expect(await readFile(join(dir, 'boxagnts.json'), 'utf8')).toContain('anthropic');
  });
});
