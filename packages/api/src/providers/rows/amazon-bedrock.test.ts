import { afterEach, describe, expect, it } from 'vitest';
import {
  CANARY_KEY,
  closeMocks,
  expectHelloResponse,
  expectNoCanary,
  helloRequest,
  MASKED_CANARY,
  onlyRequest,
  startHelloMock,
  streamOnce,
} from '../provider-row.test.helpers.js';
import { createProviderRegistry } from '../registry.js';
import { amazonBedrockProvider } from './amazon-bedrock.js';

afterEach(closeMocks);

const model = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';

describe('the amazon-bedrock row', () => {
  it('signs converse-stream with SigV4 for the region given as an option, and parses the event stream', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({
      providers: [amazonBedrockProvider],
      env: { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLEREGISTRY', AWS_SECRET_ACCESS_KEY: CANARY_KEY },
    });
    const provider = registry.createProvider({ provider: 'amazon-bedrock', region: 'eu-central-1', baseURL: mock.url });
    const { events, response } = await streamOnce(provider, helloRequest(model));

    expectHelloResponse(events, response);
    const request = onlyRequest(mock);
    expect(decodeURIComponent(request.path)).toBe(`/model/${model}/converse-stream`);
    expect(request.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLEREGISTRY\/\d{8}\/eu-central-1\/bedrock\/aws4_request, SignedHeaders=[^,]+, Signature=\*\*\*$/,
    );
    expect(request.body).toMatchObject({ inferenceConfig: { maxTokens: 256 }, system: [{ text: 'You are terse.' }] });
    expectNoCanary(events, response, mock.requests);
  });

  it('prefers a Bedrock API key (bearer) and reads the region from AWS_REGION', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({
      providers: [amazonBedrockProvider],
      env: {
        AWS_BEARER_TOKEN_BEDROCK: CANARY_KEY,
        AWS_ACCESS_KEY_ID: 'AKIDEXAMPLEREGISTRY',
        AWS_SECRET_ACCESS_KEY: 'another-secret-value-1234',
        AWS_REGION: 'us-west-2',
      },
    });
    const provider = registry.createProvider({ provider: 'amazon-bedrock', baseURL: mock.url });
    const { events, response } = await streamOnce(provider, helloRequest(model));
    expectHelloResponse(events, response);
    expect(onlyRequest(mock).headers.authorization).toBe(`Bearer ${MASKED_CANARY}`);
  });

  it('lists the region as missing when neither the option nor a variable gives one', () => {
    const registry = createProviderRegistry({
      providers: [amazonBedrockProvider],
      env: { AWS_BEARER_TOKEN_BEDROCK: CANARY_KEY },
    });
    const [status] = registry.list();
    expect(status).toMatchObject({ configured: false, credentialSource: 'environment', missing: ['parameter region'] });
  });
});
