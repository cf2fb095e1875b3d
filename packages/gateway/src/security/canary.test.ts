import { afterEach, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../gateway.js';
import { CANARY_KEY, createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';

let current: TestWorkspace | undefined;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await current?.close();
  gateway = undefined;
  current = undefined;
});

describe('the canary key', () => {
  it('appears in no response, log line or error of any route', async () => {
    current = await createTestWorkspace(
      { steps: [{ text: 'ok' }, { text: 'ok again' }] },
      { hooks: { beforeTool: [{ command: 'true', env: { HOOK_TOKEN: { secret: 'anthropic' } } }] } },
    );
    const lines: string[] = [];
    gateway = await startGateway({
      workspace: current.workspace,
      port: 0,
      log: (entry) => lines.push(JSON.stringify(entry)),
    });
    const url = gateway.url;
    const bodies: string[] = [];
    const call = async (path: string, init?: RequestInit) => {
      const response = await fetch(`${url}${path}`, init);
      const text = await response.text();
      bodies.push(`${response.status} ${JSON.stringify([...response.headers])} ${text}`);
      return text;
    };
    const post = (path: string, body: unknown) =>
      call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const run = JSON.parse(await post('/sessions/c/runs', { input: 'hi', mode: 'wait' })) as { id: string };
    for (const path of [
      '/health',
      '/agents',
      '/sessions',
      '/sessions/c',
      '/sessions/c/export',
      '/sessions/c/runs',
      '/sessions/search?q=ok',
      `/runs/${run.id}`,
      `/runs/${run.id}/events`,
      `/runs/${run.id}/wait`,
      '/files',
      '/files/content?path=../.boxagnts/secrets.json',
      '/skills',
      '/tools',
      '/providers',
      '/models',
      '/usage',
      '/config',
      '/mcp-servers',
      '/v1/models',
      '/nope',
    ]) {
      await call(path);
    }
    await post('/v1/chat/completions', { model: 'build', messages: [{ role: 'user', content: 'hey' }] });
    await post('/v1/chat/completions', { model: 'nope', messages: [{ role: 'user', content: 'hey' }] });
    // The mock has no step left: the provider call fails, and its error travels through the run's events.
    const failed = JSON.parse(await post('/sessions/d/runs', { input: 'x', mode: 'wait' })) as {
      id: string;
      status: string;
    };
    expect(failed.status).toBe('failed');
    await call(`/runs/${failed.id}/events`);
    await post(`/runs/${run.id}/cancel`, {});
    await call('/sessions/import', { method: 'POST', body: '{"broken' });
    expect(bodies.length).toBeGreaterThan(25);
    expect(bodies.filter((body) => body.includes('sk-canary'))).toEqual([]);
    expect(lines.length).toBeGreaterThan(20);
    expect(lines.join('\n')).not.toContain(CANARY_KEY);
    expect(bodies.some((body) => body.includes('"HOOK_TOKEN":{"secret":"anthropic"}'))).toBe(true);
  });
});
