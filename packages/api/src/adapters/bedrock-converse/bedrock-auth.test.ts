import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { describe, expect, it } from 'vitest';
import { isMissingApiKeyError } from '../../spec/llm-error-classes.js';
import { startLoopbackServer } from './bedrock.test.helpers.js';
import {
  authenticateBedrockRequest,
  resolveBedrockAuth,
  resolveBedrockRegion,
  signBedrockRequest,
} from './bedrock-auth.js';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };

describe('resolveBedrockAuth', () => {
  it('prefers an explicit API key, then explicit credentials', async () => {
    expect(await resolveBedrockAuth({ providerId: 'bedrock', apiKey: 'key', credentials, env: {} })).toEqual({
      type: 'bearer',
      token: 'key',
    });
    expect(
      await resolveBedrockAuth({ providerId: 'bedrock', credentials, env: { AWS_BEARER_TOKEN_BEDROCK: 'env' } }),
    ).toEqual({
      type: 'sigv4',
      credentials,
    });
  });

  it('reads a credentials provider at request time', async () => {
    let calls = 0;
    const provider = async () => {
      calls += 1;
      return { ...credentials, sessionToken: `token-${calls}` };
    };
    expect(calls).toBe(0);
    const auth = await resolveBedrockAuth({ providerId: 'bedrock', credentials: provider });
    expect(auth).toEqual({ type: 'sigv4', credentials: { ...credentials, sessionToken: 'token-1' } });
    await expect(
      resolveBedrockAuth({
        providerId: 'bedrock',
        credentials: async () => {
          throw new Error('no SSO session');
        },
      }),
    ).rejects.toMatchObject({ reason: 'auth', isRetryable: false, message: expect.stringContaining('no SSO session') });
  });

  it('reads the environment: the Bedrock API key wins over access keys', async () => {
    const env = {
      AWS_BEARER_TOKEN_BEDROCK: 'bedrock-api-key',
      AWS_ACCESS_KEY_ID: 'AKID',
      AWS_SECRET_ACCESS_KEY: 'SECRET',
    };
    expect(await resolveBedrockAuth({ providerId: 'bedrock', env })).toEqual({
      type: 'bearer',
      token: 'bedrock-api-key',
    });
    const { AWS_BEARER_TOKEN_BEDROCK: _key, ...keysOnly } = env;
    expect(await resolveBedrockAuth({ providerId: 'bedrock', env: { ...keysOnly, AWS_SESSION_TOKEN: 'tok' } })).toEqual(
      {
        type: 'sigv4',
        credentials: { accessKeyId: 'AKID', secretAccessKey: 'SECRET', sessionToken: 'tok' },
      },
    );
    expect(await resolveBedrockAuth({ providerId: 'bedrock', noApiKey: true, env: {} })).toEqual({ type: 'none' });
  });

  it('names every variable it checked when nothing is set, and the missing half of a key pair', async () => {
    const error = await resolveBedrockAuth({ providerId: 'bedrock', env: {} }).catch((thrown: unknown) => thrown);
    expect(isMissingApiKeyError(error)).toBe(true);
    expect(isMissingApiKeyError(error) && error.envVarNames).toEqual([
      'AWS_BEARER_TOKEN_BEDROCK',
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
    ]);
    expect((error as Error).message).toContain('`apiKey` (a Bedrock API key) or `credentials`');
    const half = await resolveBedrockAuth({ providerId: 'bedrock', env: { AWS_ACCESS_KEY_ID: 'AKID' } }).catch(
      (thrown: unknown) => thrown,
    );
    expect(isMissingApiKeyError(half) && half.envVarNames).toEqual(['AWS_SECRET_ACCESS_KEY']);
  });
});

describe('resolveBedrockRegion', () => {
  it('uses the setting, then AWS_REGION, then AWS_DEFAULT_REGION', () => {
    expect(resolveBedrockRegion({ providerId: 'b', region: 'eu-west-1', env: { AWS_REGION: 'x' } })).toBe('eu-west-1');
    expect(resolveBedrockRegion({ providerId: 'b', env: { AWS_REGION: 'us-west-2', AWS_DEFAULT_REGION: 'x' } })).toBe(
      'us-west-2',
    );
    expect(resolveBedrockRegion({ providerId: 'b', env: { AWS_DEFAULT_REGION: 'ap-south-1' } })).toBe('ap-south-1');
  });

  it('throws an invalid_request error naming the variables', () => {
    expect(() => resolveBedrockRegion({ providerId: 'bedrock', env: {} })).toThrow(
      /pass the `region` option or set AWS_REGION or AWS_DEFAULT_REGION/,
    );
  });
});

describe('signBedrockRequest', () => {
  it('signs a request that verifies as the server received it (double-encoded ARN path, query, token)', async () => {
    const server = await startLoopbackServer(() => ({ status: 200, body: '{}' }));
    try {
      const url = new URL(
        `${server.url}/model/${encodeURIComponent('arn:aws:bedrock:us-east-1:1:inference-profile/us.x')}/converse`,
      );
      url.searchParams.set('a', 'b c');
      const body = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'ünïcödé' }] }] });
      const headers = await signBedrockRequest(
        { method: 'POST', url, headers: { 'content-type': 'application/json', 'x-custom': 'v' }, body },
        { ...credentials, sessionToken: 'session-token' },
        'us-east-1',
        new Date('2025-01-02T03:04:05Z'),
      );
      expect(headers['x-amz-date']).toBe('20250102T030405Z');
      expect(headers['x-amz-security-token']).toBe('session-token');
      expect(headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20250102\/us-east-1\/bedrock\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token;x-custom, Signature=[0-9a-f]{64}$/,
      );
      await fetch(url, { method: 'POST', headers, body });
      const received = server.requests[0];
      expect(received?.url).toBe(
        '/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A1%3Ainference-profile%2Fus.x/converse?a=b+c',
      );
      // Re-sign what arrived with an independent signer: the signature must match.
      const [path, query = ''] = (received?.url ?? '').split('?');
      const verifier = new SignatureV4({
        service: 'bedrock',
        region: 'us-east-1',
        credentials: { ...credentials, sessionToken: 'session-token' },
        sha256: Sha256,
      });
      const resigned = await verifier.sign(
        {
          method: 'POST',
          protocol: 'http:',
          hostname: '127.0.0.1',
          path: path ?? '/',
          query: Object.fromEntries(new URLSearchParams(query)),
          headers: {
            host: String(received?.headers.host),
            'content-type': String(received?.headers['content-type']),
            'x-custom': String(received?.headers['x-custom']),
          },
          body: received?.body,
        },
        { signingDate: new Date('2025-01-02T03:04:05Z') },
      );
      expect(received?.headers.authorization).toBe(resigned.headers.authorization);
    } finally {
      await server.close();
    }
  });

  it('authenticateBedrockRequest adds a bearer token, or nothing', async () => {
    const request = { method: 'GET', url: new URL('https://example.com/x'), headers: { accept: 'application/json' } };
    const region = () => 'us-east-1';
    expect(await authenticateBedrockRequest(request, { type: 'bearer', token: 'abc' }, region)).toEqual({
      accept: 'application/json',
      authorization: 'Bearer abc',
    });
    expect(await authenticateBedrockRequest(request, { type: 'none' }, region)).toEqual({ accept: 'application/json' });
  });
});
