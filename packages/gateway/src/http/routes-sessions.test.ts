import { afterEach, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../gateway.js';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';
import type { SessionDetailJson, ToolListJson } from './api-types/index.js';

let current: TestWorkspace | undefined;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await current?.close();
  gateway = undefined;
  current = undefined;
});

const json = (body: unknown, method = 'POST') => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('sessions over HTTP', () => {
  it('lists, loads, renames, forks, searches, exports, imports and deletes sessions', async () => {
    current = await createTestWorkspace({ steps: [{ text: 'Paris is the capital.' }] });
    gateway = await startGateway({ workspace: current.workspace, port: 0 });
    const url = gateway.url;
    const run = (await (
      await fetch(`${url}/sessions/geo/runs`, json({ input: 'Capital of France?', mode: 'wait' }))
    ).json()) as { status: string };
    expect(run.status).toBe('completed');
    const list = (await (await fetch(`${url}/sessions`)).json()) as { sessions: { id: string }[] };
    expect(list.sessions.map((session) => session.id)).toEqual(['geo']);
    expect((await fetch(`${url}/sessions/geo`, json({ title: 'Geography' }, 'PATCH'))).status).toBe(200);
    const loaded = (await (await fetch(`${url}/sessions/geo`)).json()) as {
      session: { title: string };
      messages: unknown[];
    };
    expect(loaded.session.title).toBe('Geography');
    expect(loaded.messages).toHaveLength(2);
    const fork = (await (await fetch(`${url}/sessions/geo/fork`, json({ atSeq: 1 }))).json()) as {
      id: string;
      messageCount: number;
    };
    expect(fork.messageCount).toBe(1);
    const hits = (await (await fetch(`${url}/sessions/search?q=Paris`)).json()) as { hits: { sessionId: string }[] };
    expect(hits.hits.map((hit) => hit.sessionId)).toEqual(['geo']);
    const exported = await (await fetch(`${url}/sessions/geo/export`)).text();
    expect(exported.split('\n').filter(Boolean)).toHaveLength(3);
    const imported = (await (
      await fetch(`${url}/sessions/import?id=copy`, { method: 'POST', body: exported })
    ).json()) as { id: string; messageCount: number };
    expect(imported).toMatchObject({ id: 'copy', messageCount: 2 });
    expect((await fetch(`${url}/sessions/geo`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(`${url}/sessions/geo`)).status).toBe(404);
    const bad = await fetch(`${url}/sessions/import`, { method: 'POST', body: 'not jsonl' });
    expect(bad.status).toBe(400);
    const badFork = await fetch(`${url}/sessions/copy/fork`, json({ atSeq: 0 }));
    expect(badFork.status).toBe(400);
    expect(((await badFork.json()) as { error: { issues: { path: string }[] } }).error.issues[0]?.path).toBe('atSeq');
  });

  it('a session names its forks and sub-agent sessions, and which agent call started each; a sub-agent session opens by its encoded id', async () => {
    const usage = { input: 10, output: 5 };
    current = await createTestWorkspace(
      {
        steps: [
          {
            content: [{ type: 'tool_call', name: 'agent', input: { description: 'look', prompt: 'Look around.' } }],
            usage,
          },
          { text: 'child answer', usage },
          { text: 'parent answer', usage },
        ],
      },
      { permissions: { allow: ['agent'] } },
    );
    gateway = await startGateway({ workspace: current.workspace, port: 0 });
    const url = gateway.url;
    const run = (await (
      await fetch(`${url}/sessions/parent/runs`, json({ input: 'Delegate a look', mode: 'wait' }))
    ).json()) as { status: string };
    expect(run.status).toBe('completed');
    const fork = (await (
      await fetch(`${url}/sessions/parent/fork`, json({ atSeq: 2, title: 'At the call' }))
    ).json()) as {
      id: string;
    };
    const detail = (await (await fetch(`${url}/sessions/parent`)).json()) as SessionDetailJson;
    const call = detail.messages
      .flatMap((entry) => (typeof entry.message.content === 'string' ? [] : entry.message.content))
      .find((block) => block.type === 'tool_use');
    expect(call?.type).toBe('tool_use');
    const callId = (call as { id: string }).id;
    expect(detail.subAgentSessions).toEqual({ [callId]: 'parent/agent-1-1' });
    expect(detail.children.map((child) => [child.id, child.kind]).sort()).toEqual(
      [
        [fork.id, 'fork'],
        ['parent/agent-1-1', 'sub-agent'],
      ].sort(),
    );
    const child = (await (
      await fetch(`${url}/sessions/${encodeURIComponent('parent/agent-1-1')}`)
    ).json()) as SessionDetailJson;
    expect(child.session).toMatchObject({ id: 'parent/agent-1-1', kind: 'sub-agent', parentSessionId: 'parent' });
    expect(child.messages[0]?.message.content).toBe('Look around.');
    const forked = (await (await fetch(`${url}/sessions/${fork.id}`)).json()) as SessionDetailJson;
    expect(forked.messages.map((entry) => entry.seq)).toEqual([1, 2]);
    expect(forked.messages.map((entry) => entry.message)).toEqual(
      detail.messages.slice(0, 2).map((entry) => entry.message),
    );
  });

  it('lists agents, tools, providers (never the key), models with prices, usage and the masked config', async () => {
    current = await createTestWorkspace({ steps: [] });
    gateway = await startGateway({ workspace: current.workspace, port: 0 });
    const url = gateway.url;
    const agents = (await (await fetch(`${url}/agents`)).json()) as { agents: { name: string }[] };
    expect(agents.agents.map((agent) => agent.name)).toEqual(expect.arrayContaining(['build', 'plan', 'explore']));
    const tools = (await (await fetch(`${url}/tools?agent=plan`)).json()) as ToolListJson;
    expect(tools.tools.map((tool) => tool.name)).toContain('read');
    // Each tool says where it comes from: the sandbox's tools are components, the native ones built in.
    expect(tools.tools.find((tool) => tool.name === 'read')).toMatchObject({ origin: 'component', source: 'sandbox' });
    const native = tools.tools.filter((tool) => tool.source === 'native');
    expect(native.length).toBeGreaterThan(0);
    expect(native.every((tool) => tool.origin === 'built-in')).toBe(true);
    expect(
      tools.tools.every((tool) => ['built-in', 'component', 'mcp', 'plugin', 'custom'].includes(tool.origin)),
    ).toBe(true);
    const providers = (await (await fetch(`${url}/providers`)).json()) as {
      providers: { id: string; configured: boolean; credentialSource: string }[];
    };
    expect(providers.providers.find((provider) => provider.id === 'anthropic')).toMatchObject({
      configured: true,
      credentialSource: 'option',
    });
    const models = (await (await fetch(`${url}/models?provider=anthropic`)).json()) as {
      models: { id: string; price?: { input: number } }[];
    };
    const sonnet = models.models.find((model) => model.id === 'anthropic/claude-sonnet-4-6');
    expect(sonnet?.price?.input).toBeGreaterThan(0);
    const config = (await (await fetch(`${url}/config`)).json()) as {
      config: { providers: { anthropic: { apiKey: unknown } } };
    };
    expect(config.config.providers.anthropic.apiKey).toEqual({ secret: 'anthropic' });
    expect((await fetch(`${url}/usage?groupBy=weekday`)).status).toBe(400);
  });
});
