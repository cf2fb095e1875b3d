import { afterEach, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../gateway.js';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';

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

  it('lists agents, tools, providers (never the key), models with prices, usage and the masked config', async () => {
    current = await createTestWorkspace({ steps: [] });
    gateway = await startGateway({ workspace: current.workspace, port: 0 });
    const url = gateway.url;
    const agents = (await (await fetch(`${url}/agents`)).json()) as { agents: { name: string }[] };
    expect(agents.agents.map((agent) => agent.name)).toEqual(expect.arrayContaining(['build', 'plan', 'explore']));
    const tools = (await (await fetch(`${url}/tools?agent=plan`)).json()) as { tools: { name: string }[] };
    expect(tools.tools.map((tool) => tool.name)).toContain('read');
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
