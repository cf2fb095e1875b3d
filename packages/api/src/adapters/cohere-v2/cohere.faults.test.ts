import type { MockErrorKind, MockTurn } from '@boxagnts/testkit';
import { describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import type { LlmErrorReason } from '../../spec/llm-error.js';
import { isContextOverflowError } from '../../spec/llm-error-classes.js';
import { lastError, startFaultTestSetup } from '../../test/fault-test-setup.js';
import { collect, expectWellFormed, helloRequest, testApiKey } from './cohere.test.helpers.js';
import { type CohereSettings, createCohereProvider } from './cohere-provider.js';

// The testkit's faults where the Cohere adapter's answer is its own: the provider id, Cohere's status
// codes and error wording, key redaction, SSE keep-alives, the in-stream ERROR finish, generated ids.
// The generic fault cases run for every adapter in conformance/cross-adapter.test.ts.

const { mock, fast } = await startFaultTestSetup();

function provider(overrides: Partial<CohereSettings> = {}) {
  return createCohereProvider({
    baseURL: mock.url,
    apiKey: testApiKey,
    ...fast,
    ...overrides,
  });
}

const textTurn: MockTurn = { text: 'The port is 8000.', usage: { input: 20, output: 6 }, chunking: { textDelta: 4 } };
const toolTurn: MockTurn = {
  content: [
    { type: 'text', text: 'Reading both.' },
    { type: 'tool_call', name: 'read', input: { path: 'a.txt' } },
    { type: 'tool_call', name: 'read', input: { path: 'b.txt' } },
  ],
  chunking: { argumentsDelta: 5 },
};

describe('HTTP errors', () => {
  it.each([
    'quota',
    'auth',
    'permission',
    'not_found',
    'invalid_request',
    'context_overflow',
    'overloaded',
    'server',
    'rate_limit',
  ] as MockErrorKind[])('%s names the provider cohere', async (kind) => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'http_error', error: kind } }], repeatLast: true });
    expect(lastError(await collect(provider()))?.providerId).toBe('cohere');
  });

  it.each([
    [498, 'auth'],
    [499, 'server'],
    [504, 'timeout'],
  ] as Array<[number, LlmErrorReason]>)('status %i is %s', async (status, reason) => {
    mock.setScript({
      steps: [
        { ...textTurn, fault: { kind: 'http_error', error: 'invalid_request', status, message: 'request failed' } },
      ],
      repeatLast: true,
    });
    expect(lastError(await collect(provider({ retry: { maxRetries: 0 } })))?.reason).toBe(reason);
  });

  it('"too many tokens" is a context overflow with both counts', async () => {
    mock.setScript({
      steps: [
        {
          ...textTurn,
          fault: { kind: 'http_error', error: 'context_overflow', requestedTokens: 140_000, limitTokens: 128_000 },
        },
      ],
    });
    const error = lastError(await collect(provider()));
    expect(isContextOverflowError(error) && [error.requestedTokens, error.limitTokens]).toEqual([140_000, 128_000]);
    expect(error?.status).toBe(400);
    expect(error?.message).toContain('too many tokens');
  });

  it('the key in use never appears in an error message', async () => {
    mock.setScript({
      steps: [
        { ...textTurn, fault: { kind: 'http_error', error: 'auth', message: `invalid api token ${testApiKey}` } },
      ],
    });
    const error = lastError(await collect(provider()));
    expect(error?.reason).toBe('auth');
    expect(error?.message).not.toContain(testApiKey);
  });

  it('createMessage rejects with the classified error and does not retry quota', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'http_error', error: 'quota' } }], repeatLast: true });
    await expect(provider().createMessage(helloRequest)).rejects.toMatchObject({ reason: 'quota', status: 402 });
    expect(mock.requests).toHaveLength(1);
  });
});

describe('broken connections and stalls', () => {
  it('a truncated stream (no message-end) is an error, not a silent success', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'truncate' } }] });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(lastError(events)?.reason).toBe('network');
  });

  it('SSE keep-alive comments with no content past keepAliveTimeoutMs are a stall (keep-alive-only)', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'stall', afterEvents: 2, pingIntervalMs: 20 } }] });
    const events = await collect(provider({ retry: { maxRetries: 0 } }));
    expect(lastError(events)).toMatchObject({ reason: 'stream_stall', stallKind: 'keep-alive-only' });
  });

  it('createMessage: a stalled body is a stall', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'stall' } }], repeatLast: true });
    await expect(provider({ retry: { maxRetries: 0 } }).createMessage(helloRequest)).rejects.toMatchObject({
      reason: 'stream_stall',
    });
  });
});

describe('in-stream errors (message-end with finish_reason ERROR and an error text)', () => {
  it('before any content: retried', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'mid_stream_error', afterEvents: 1, error: 'overloaded' });
    const events = await collect(provider());
    expect(events.at(-1)?.type).toBe('message-end');
    expect(mock.requests).toHaveLength(2);
  });

  it.each([
    ['overloaded', 'overloaded'],
    ['rate_limit', 'rate_limit'],
    ['server', 'server'],
    ['context_overflow', 'context_overflow'],
  ] as Array<[MockErrorKind, LlmErrorReason]>)('after content, %s ends as %s', async (kind, reason) => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'mid_stream_error', afterEvents: 3, error: kind } }] });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(lastError(events)?.reason).toBe(reason);
    expect(lastError(events)?.message).toContain('in the stream');
    expect(mock.requests).toHaveLength(1);
  });

  it('the in-stream overflow carries its counts', async () => {
    mock.setScript({
      steps: [
        {
          ...textTurn,
          fault: {
            kind: 'mid_stream_error',
            afterEvents: 3,
            error: 'context_overflow',
            message: 'too many tokens: total number of tokens in the prompt cannot exceed 128000 - received 131072.',
          },
        },
      ],
    });
    const error = lastError(await collect(provider()));
    expect(isContextOverflowError(error) && [error.requestedTokens, error.limitTokens]).toEqual([131_072, 128_000]);
  });
});

describe('broken tool calls', () => {
  it('missing ids are generated from the call index, streamed or not', async () => {
    mock.setScript({ steps: [{ ...toolTurn, fault: { kind: 'missing_tool_ids' } }], repeatLast: true });
    const response = await assembleMessage(await collect(provider()));
    const ids = response.message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    expect(ids).toEqual(['call_0', 'call_1']);
    const created = await provider().createMessage(helloRequest);
    expect(created.message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []))).toEqual([
      'call_0',
      'call_1',
    ]);
  });
});
