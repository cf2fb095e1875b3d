import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../spec/stream-event.js';
import { helloRequest } from '../provider-row.test.helpers.js';
import { createProviderRegistry } from '../registry.js';
import { copilotRequestHeaders, copilotUsesResponsesApi } from './github-copilot-provider.js';

const TOKEN = 'gho_refresh_canary_token_abcd';
let dir: string;
let mock: MockServer;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'copilot-'));
  mock = await startMockServer({ script: { steps: [{ text: 'Hi from Copilot.' }], repeatLast: true } });
});
afterEach(async () => {
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

/** BoxAgnts' auth.json as its AuthStore writes it. */
async function writeAuthStore(content: unknown) {
  await mkdir(join(dir, '.boxagnts'), { recursive: true });
  await writeFile(join(dir, '.boxagnts', 'auth.json'), typeof content === 'string' ? content : JSON.stringify(content));
}

function copilot(env: Record<string, string> = {}) {
  const registry = createProviderRegistry({
    env,
    providerOptions: {
      'github-copilot': {
        baseURL: mock.url,
        parameters: { boxagntsDir: join(dir, '.boxagnts') },
        retry: { maxRetries: 0 },
      },
    },
  });
  return { registry, provider: registry.getProvider('github-copilot') };
}

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('github-copilot row', () => {
  it("reads BoxAgnts' auth.json (the OAuth refresh token) and sends Copilot's headers", async () => {
    await writeAuthStore({
      credentials: { 'github-copilot': { type: 'oauth', access: 'gho_access_zzzz', refresh: TOKEN, expires: 0 } },
    });
    const { registry, provider } = copilot();
    const events = await collect(provider.streamMessage(helloRequest('gpt-4.1')));
    expect(events.at(-1)?.type).toBe('message-end');
    const request = mock.requests[0];
    expect(request?.path).toBe('/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer ***abcd');
    expect(request?.headers['openai-intent']).toBe('conversation-edits');
    expect(request?.headers['x-initiator']).toBe('user');
    expect(request?.headers['copilot-vision-request']).toBeUndefined();
    const status = registry.list().find((entry) => entry.id === 'github-copilot');
    expect(status?.credentialSource).toBe('file');
    expect(status?.configured).toBe(true);
  });

  it('sends GPT-5-class models to the Responses API and the rest to Chat Completions', async () => {
    await writeAuthStore({ credentials: { 'github-copilot': { type: 'api', key: TOKEN } } });
    const { provider } = copilot();
    await collect(provider.streamMessage(helloRequest('gpt-5.4')));
    await collect(provider.streamMessage(helloRequest('gpt-5-mini')));
    expect(mock.requests.map((request) => request.path)).toEqual(['/responses', '/chat/completions']);
    expect(copilotUsesResponsesApi('gpt-5.1-codex')).toBe(true);
    expect(copilotUsesResponsesApi('claude-sonnet-4.6')).toBe(false);
  });

  it('GITHUB_TOKEN wins over the file; with neither, the error names both', async () => {
    await writeAuthStore({ credentials: {} });
    const { provider } = copilot({ GITHUB_TOKEN: 'ghp_env_token_9876' });
    await collect(provider.streamMessage(helloRequest('gpt-4.1')));
    expect(mock.requests[0]?.headers.authorization).toBe('Bearer ***9876');
    const missing = await collect(copilot().provider.streamMessage(helloRequest('gpt-4.1')));
    const last = missing.at(-1);
    expect(last?.type === 'error' ? last.error.reason : last?.type).toBe('auth');
    expect(last?.type === 'error' ? last.error.message : '').toMatch(/GITHUB_TOKEN.*auth\.json/);
  });

  it("a file that is not BoxAgnts' format is a clear error naming the file, never a crash", async () => {
    await writeAuthStore('{not json');
    const events = await collect(copilot().provider.streamMessage(helloRequest('gpt-4.1')));
    const last = events.at(-1);
    expect(last?.type === 'error' ? last.error.message : '').toMatch(/auth\.json cannot be used: it is not JSON/);
    await writeAuthStore({ credentials: { 'github-copilot': { type: 'oauth', refresh: 42 } } });
    const wrong = await collect(copilot().provider.streamMessage(helloRequest('gpt-4.1')));
    expect(wrong.at(-1)?.type === 'error' ? (wrong.at(-1) as { error: Error }).error.message : '').toMatch(/neither/);
    expect(mock.requests).toHaveLength(0);
  });

  it('x-initiator is agent for tool results, and images add Copilot-Vision-Request', () => {
    expect(
      copilotRequestHeaders({
        model: 'gpt-4.1',
        messages: [
          { role: 'user', content: 'read it' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', toolUseId: 't1', content: 'x' }] },
        ],
      })['x-initiator'],
    ).toBe('agent');
    const headers = copilotRequestHeaders({
      model: 'gpt-4.1',
      messages: [
        {
          role: 'user',
          content: [{ type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'AA==' } }],
        },
      ],
    });
    expect(headers).toMatchObject({ 'x-initiator': 'user', 'copilot-vision-request': 'true' });
  });
});
