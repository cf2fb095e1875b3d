import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMissingApiKeyError } from '../../spec/llm-error-classes.js';
import { collect, helloRequest, startLoopbackServer, testCredentials } from './bedrock.test.helpers.js';
import { createBedrockConverseProvider } from './bedrock-provider.js';

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({ script: { steps: [{ text: 'ok' }], repeatLast: true } });
});

afterAll(async () => {
  await mock.close();
});

describe('createBedrockConverseProvider', () => {
  it('has the protocol id and a display name unless told otherwise', () => {
    expect(createBedrockConverseProvider()).toMatchObject({ id: 'bedrock', name: 'Amazon Bedrock' });
    expect(createBedrockConverseProvider({ providerId: 'bedrock-eu', providerName: 'EU' })).toMatchObject({
      id: 'bedrock-eu',
      name: 'EU',
    });
  });

  it('URI-encodes inference-profile ARNs in the path and sends a Bedrock API key as a bearer token', async () => {
    mock.clearRequests();
    const provider = createBedrockConverseProvider({
      baseURL: `${mock.url}/`,
      env: { AWS_BEARER_TOKEN_BEDROCK: 'bedrock-api-key-123456' },
      headers: { 'X-Team': 'agents' },
    });
    const model = 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc123';
    const events = await collect(provider, { ...helloRequest, model });
    expect(events.at(-1)?.type).toBe('message-end');
    const request = mock.requests[0];
    expect(request?.path).toBe(`/model/${encodeURIComponent(model)}/converse-stream`);
    expect(request?.model).toBe(model);
    expect(request?.headers.authorization).toBe('Bearer ***3456');
    expect(request?.headers['x-team']).toBe('agents');
    expect(request?.headers['x-amz-date']).toBeUndefined();
  });

  it('fails with one typed error event, not a throw, when credentials or the region are missing', async () => {
    const noCredentials = await collect(createBedrockConverseProvider({ region: 'us-east-1', env: {} }));
    expect(noCredentials).toHaveLength(1);
    expect(noCredentials[0]?.type === 'error' && isMissingApiKeyError(noCredentials[0].error)).toBe(true);
    const noRegion = await collect(createBedrockConverseProvider({ credentials: testCredentials, env: {} }));
    expect(noRegion[0]).toMatchObject({
      type: 'error',
      error: { reason: 'invalid_request', message: expect.stringContaining('AWS_REGION or AWS_DEFAULT_REGION') },
    });
  });

  it('resolves the environment when a request is made, not at creation', async () => {
    const env: Record<string, string | undefined> = {};
    const provider = createBedrockConverseProvider({ baseURL: mock.url, env });
    env.AWS_REGION = 'eu-central-1';
    env.AWS_ACCESS_KEY_ID = 'AKIDLATE';
    env.AWS_SECRET_ACCESS_KEY = 'late-secret';
    mock.clearRequests();
    const events = await collect(provider);
    expect(events.at(-1)?.type).toBe('message-end');
    expect(mock.requests[0]?.headers.authorization).toMatch(/Credential=AKIDLATE\/\d{8}\/eu-central-1\/bedrock\//);
  });

  it('lists text models from the control plane, signed the same way', async () => {
    const server = await startLoopbackServer(() => ({
      status: 200,
      body: JSON.stringify({
        modelSummaries: [
          {
            modelId: 'anthropic.claude-3-5-haiku-20241022-v1:0',
            modelName: 'Claude 3.5 Haiku',
            providerName: 'Anthropic',
          },
          { modelId: 'amazon.nova-pro-v1:0' },
        ],
      }),
    }));
    try {
      const provider = createBedrockConverseProvider({
        controlPlaneBaseURL: server.url,
        region: 'us-west-2',
        credentials: testCredentials,
      });
      expect(await provider.listModels()).toEqual([
        { id: 'anthropic.claude-3-5-haiku-20241022-v1:0', name: 'Claude 3.5 Haiku' },
        { id: 'amazon.nova-pro-v1:0' },
      ]);
      expect(server.requests[0]?.method).toBe('GET');
      expect(server.requests[0]?.url).toBe('/foundation-models?byOutputModality=TEXT');
      expect(server.requests[0]?.headers.authorization).toMatch(/\/us-west-2\/bedrock\/aws4_request/);
    } finally {
      await server.close();
    }
  });

  it('classifies control-plane errors from x-amzn-ErrorType', async () => {
    const server = await startLoopbackServer(() => ({
      status: 403,
      headers: {
        'x-amzn-ErrorType': 'ExpiredTokenException:http://internal.amazon.com/coral/com.amazon.coral.service/',
      },
      body: JSON.stringify({ message: 'The security token included in the request is expired' }),
    }));
    try {
      const provider = createBedrockConverseProvider({
        controlPlaneBaseURL: server.url,
        region: 'us-west-2',
        credentials: testCredentials,
      });
      await expect(provider.listModels()).rejects.toMatchObject({ reason: 'auth', status: 403 });
    } finally {
      await server.close();
    }
  });
});
