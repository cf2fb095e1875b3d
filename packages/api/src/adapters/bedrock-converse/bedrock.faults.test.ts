import type { MockErrorKind, MockTurn } from '@boxagnts/testkit';
import { describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import type { LlmErrorReason } from '../../spec/llm-error.js';
import { isContextOverflowError } from '../../spec/llm-error-classes.js';
import { lastError, startFaultTestSetup } from '../../test/fault-test-setup.js';
import { collect, expectWellFormed, helloRequest, testCredentials } from './bedrock.test.helpers.js';
import { type BedrockConverseSettings, createBedrockConverseProvider } from './bedrock-provider.js';

// The testkit's faults where the Bedrock adapter's answer is its own: the provider id, Bedrock's
// error wording and counts, in-stream exception frames, no keep-alives, generated ids. The generic
// fault cases run for every adapter in conformance/cross-adapter.test.ts.

const { mock, fast } = await startFaultTestSetup();

function provider(overrides: Partial<BedrockConverseSettings> = {}) {
  return createBedrockConverseProvider({
    baseURL: mock.url,
    region: 'us-east-1',
    credentials: testCredentials,
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
  ] as MockErrorKind[])('%s names the provider bedrock', async (kind) => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'http_error', error: kind } }], repeatLast: true });
    expect(lastError(await collect(provider()))?.providerId).toBe('bedrock');
  });

  it('context overflow carries the token counts Bedrock states', async () => {
    mock.setScript({
      steps: [
        {
          ...textTurn,
          fault: { kind: 'http_error', error: 'context_overflow', requestedTokens: 210_000, limitTokens: 200_000 },
        },
      ],
    });
    const error = lastError(await collect(provider()));
    expect(isContextOverflowError(error)).toBe(true);
    expect(isContextOverflowError(error) && [error.requestedTokens, error.limitTokens]).toEqual([210_000, 200_000]);
    expect(error?.status).toBe(400);
    expect(error?.isRetryable).toBe(false);
  });

  it('"Input is too long for requested model" is a context overflow without counts', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'http_error', error: 'context_overflow' } }] });
    const error = lastError(await collect(provider()));
    expect(isContextOverflowError(error) && [error.requestedTokens, error.limitTokens]).toEqual([undefined, undefined]);
    expect(error?.message).toContain('Input is too long for requested model');
  });

  it('createMessage rejects with the classified error, and does not retry a quota error', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'http_error', error: 'quota' } }], repeatLast: true });
    await expect(provider().createMessage(helloRequest)).rejects.toMatchObject({ reason: 'quota', status: 400 });
    expect(mock.requests).toHaveLength(1);
  });
});

describe('broken connections and stalls', () => {
  it('a truncated stream (no messageStop, no metadata) is an error, not a silent success', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'truncate' } }], repeatLast: true });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(lastError(events)?.reason).toBe('network');
  });

  it('a stall with keep-alives only (Bedrock has none, so nothing arrives) is a stall too', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'stall', pingIntervalMs: 20 } }] });
    const events = await collect(provider({ retry: { maxRetries: 0 } }));
    expect(lastError(events)?.reason).toBe('stream_stall');
  });

  it('createMessage: a stalled body is a stall', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'stall' } }], repeatLast: true });
    await expect(provider({ retry: { maxRetries: 0 } }).createMessage(helloRequest)).rejects.toMatchObject({
      reason: 'stream_stall',
    });
  });
});

describe('in-stream exception frames', () => {
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
    ['invalid_request', 'invalid_request'],
  ] as Array<[MockErrorKind, LlmErrorReason]>)('after content, a %s exception ends as %s', async (kind, reason) => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'mid_stream_error', afterEvents: 3, error: kind } }] });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(lastError(events)?.reason).toBe(reason);
    expect(lastError(events)?.message).toContain('in the stream');
    expect(mock.requests).toHaveLength(1);
  });

  it("a validationException with Anthropic's overflow wording is a context overflow with counts", async () => {
    mock.setScript({
      steps: [
        {
          ...textTurn,
          fault: {
            kind: 'mid_stream_error',
            afterEvents: 3,
            error: 'context_overflow',
            message: 'prompt is too long: 201000 tokens > 200000 maximum',
          },
        },
      ],
    });
    const error = lastError(await collect(provider()));
    expect(isContextOverflowError(error) && [error.requestedTokens, error.limitTokens]).toEqual([201_000, 200_000]);
  });
});

describe('broken tool calls', () => {
  it('missing ids are generated from the block index', async () => {
    mock.setScript({ steps: [{ ...toolTurn, fault: { kind: 'missing_tool_ids' } }], repeatLast: true });
    const response = await assembleMessage(await collect(provider()));
    const ids = response.message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    expect(ids).toEqual(['call_1', 'call_2']);
    expect(response.message.content.filter((block) => block.type === 'tool_use')).toMatchObject([
      { input: { path: 'a.txt' } },
      { input: { path: 'b.txt' } },
    ]);
  });
});
