import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createAnthropicMessagesProvider, requestHeaders } from './anthropic-provider.js';

describe('requestHeaders', () => {
  it('sends the key as x-api-key by default and removes the SDK Bearer header', () => {
    expect(requestHeaders({}, undefined, 'k')).toEqual({
      'anthropic-version': '2023-06-01',
      'x-api-key': 'k',
      authorization: null,
    });
  });

  it('sends Authorization: Bearer for authStyle bearer, without x-api-key', () => {
    expect(requestHeaders({ authStyle: 'bearer', anthropicVersion: '2099-01-01' }, undefined, 'k')).toEqual({
      'anthropic-version': '2099-01-01',
      authorization: 'Bearer k',
      'x-api-key': null,
    });
  });

  it('sends no credentials without a key', () => {
    expect(requestHeaders({}, undefined, undefined)).toMatchObject({ authorization: null, 'x-api-key': null });
  });

  it('merges betas from settings and both header sets, once each; call headers win', () => {
    const headers = requestHeaders(
      { betas: ['a', 'b'], headers: { 'Anthropic-Beta': 'b, c', 'X-Team': 'core' } },
      { 'anthropic-beta': 'd', 'x-team': 'edge' },
      'k',
    );
    expect(headers['anthropic-beta']).toBe('a,b,c,d');
    expect(headers['x-team']).toBe('edge');
  });

  it('never lets a header setting override the credentials', () => {
    expect(
      requestHeaders({ headers: { 'x-api-key': 'other', authorization: 'Bearer other' } }, undefined, 'k'),
    ).toMatchObject({
      'x-api-key': 'k',
      authorization: null,
    });
  });
});

describe('createAnthropicMessagesProvider', () => {
  it('reads no key at creation and names itself after the provider id', () => {
    const anthropic = createAnthropicMessagesProvider({ env: {} });
    expect([anthropic.id, anthropic.name]).toEqual(['anthropic', 'Anthropic']);
    const minimax = createAnthropicMessagesProvider({ providerId: 'minimax', providerName: 'MiniMax', env: {} });
    expect([minimax.id, minimax.name]).toEqual(['minimax', 'MiniMax']);
  });

  it('rejects createMessage and listModels with the missing-key error when no key is set', async () => {
    const provider = createAnthropicMessagesProvider({ env: {}, apiKeyEnvVars: ['MY_KEY'], retry: { maxRetries: 0 } });
    await expect(provider.createMessage({ model: 'm', messages: [] })).rejects.toMatchObject({
      reason: 'auth',
      envVarNames: ['MY_KEY'],
    });
    await expect(provider.listModels()).rejects.toMatchObject({ reason: 'auth' });
  });
});

describe('listModels', () => {
  it('follows pagination and maps context window, output limit and dates', async () => {
    const seen: Array<{ query: string; key: string | undefined; version: string | undefined }> = [];
    const server: Server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://local');
      seen.push({
        query: url.search,
        key: request.headers['x-api-key'] as string | undefined,
        version: request.headers['anthropic-version'] as string | undefined,
      });
      const first = url.searchParams.get('after_id') === null;
      const page = first
        ? {
            data: [
              {
                type: 'model',
                id: 'claude-a',
                display_name: 'Claude A',
                created_at: '2026-01-01T00:00:00Z',
                max_input_tokens: 200000,
                max_tokens: 64000,
              },
            ],
            has_more: true,
            first_id: 'claude-a',
            last_id: 'claude-a',
          }
        : {
            data: [{ type: 'model', id: 'claude-b', display_name: null }],
            has_more: false,
            first_id: 'claude-b',
            last_id: 'claude-b',
          };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const models = await createAnthropicMessagesProvider({ baseURL, apiKey: 'list-key' }).listModels();
      expect(models).toEqual([
        {
          id: 'claude-a',
          name: 'Claude A',
          contextWindow: 200000,
          maxOutputTokens: 64000,
          createdAt: '2026-01-01T00:00:00Z',
        },
        { id: 'claude-b' },
      ]);
      expect(seen.map((entry) => [entry.key, entry.version])).toEqual([
        ['list-key', '2023-06-01'],
        ['list-key', '2023-06-01'],
      ]);
      expect(seen[1]?.query).toContain('after_id=claude-a');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('honours an aborted signal without sending anything', async () => {
    const controller = new AbortController();
    controller.abort();
    const provider = createAnthropicMessagesProvider({ baseURL: 'http://127.0.0.1:9', apiKey: 'k' });
    await expect(provider.listModels({ signal: controller.signal })).rejects.toMatchObject({ reason: 'aborted' });
  });
});
