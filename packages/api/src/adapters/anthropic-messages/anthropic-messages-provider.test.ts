import { describe, expect, it } from 'vitest';
import { createAnthropicMessagesProvider, requestHeaders } from './anthropic-messages-provider.js';

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
