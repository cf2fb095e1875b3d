import { type MockErrorKind, type MockServer, type MockTurn, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import type { LlmErrorReason } from '../../spec/llm-error.js';
import { isContextOverflowError, isStreamStallError } from '../../spec/llm-error-classes.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { collect, expectWellFormed, helloRequest, testApiKey } from './cohere.test.helpers.js';
import { type CohereSettings, createCohereProvider } from './cohere-provider.js';

// Every testkit fault against the Cohere adapter: HTTP errors in Cohere's shape, broken
// connections, stalls (with SSE keep-alives too), the in-stream ERROR finish and broken tool calls.

let mock: MockServer;
const sleeps: number[] = [];

beforeAll(async () => {
  mock = await startMockServer();
});

afterAll(async () => {
  await mock.close();
});

beforeEach(() => {
  sleeps.length = 0;
  mock.clearRequests();
});

function provider(overrides: Partial<CohereSettings> = {}) {
  return createCohereProvider({
    baseURL: mock.url,
    apiKey: testApiKey,
    retry: {
      maxRetries: 2,
      sleep: async (ms: number) => {
        sleeps.push(ms);
      },
    },
    stall: { firstByteTimeoutMs: 300, idleTimeoutMs: 300 },
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

function lastError(events: readonly StreamEvent[]) {
  const last = events.at(-1);
  return last?.type === 'error' ? last.error : undefined;
}

describe('HTTP errors', () => {
  it.each([
    ['quota', 'quota', 1],
    ['auth', 'auth', 1],
    ['permission', 'permission', 1],
    ['not_found', 'not_found', 1],
    ['invalid_request', 'invalid_request', 1],
    ['context_overflow', 'context_overflow', 1],
    ['overloaded', 'overloaded', 3],
    ['server', 'server', 3],
    ['rate_limit', 'rate_limit', 3],
  ] as Array<[MockErrorKind, LlmErrorReason, number]>)(
    '%s ends as %s after %i request(s)',
    async (kind, reason, requests) => {
      mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'http_error', error: kind } }], repeatLast: true });
      const events = await collect(provider());
      expect(events).toHaveLength(1);
      expect(lastError(events)?.reason).toBe(reason);
      expect(lastError(events)?.providerId).toBe('cohere');
      expect(mock.requests).toHaveLength(requests);
    },
  );

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

  it('retries a trial-key rate limit after the retry-after asked for, repeating nothing', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'http_error', error: 'rate_limit', retryAfterSeconds: 3 });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(sleeps).toEqual([3000]);
    expect(mock.requests).toHaveLength(2);
    expect(events.filter((event) => event.type === 'message-start')).toHaveLength(1);
  });

  it('a retry-after beyond the cap fails at once', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'http_error', error: 'rate_limit', retryAfterSeconds: 90 });
    const events = await collect(
      provider({ retry: { maxRetryAfterMs: 10_000, sleep: async (ms) => void sleeps.push(ms) } }),
    );
    expect(lastError(events)).toMatchObject({ reason: 'rate_limit', retryAfterMs: 90_000 });
    expect(sleeps).toEqual([]);
    expect(mock.requests).toHaveLength(1);
  });

  it("an overload is retried and the retry's events are not duplicated", async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'http_error', error: 'overloaded' }, { times: 2 });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(mock.requests).toHaveLength(3);
    expect(events.filter((event) => event.type === 'text-start')).toHaveLength(1);
    expect((await assembleMessage(events)).message.content).toEqual([{ type: 'text', text: 'The port is 8000.' }]);
  });

  it('createMessage rejects with the classified error and does not retry quota', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'http_error', error: 'quota' } }], repeatLast: true });
    await expect(provider().createMessage(helloRequest)).rejects.toMatchObject({ reason: 'quota', status: 402 });
    expect(mock.requests).toHaveLength(1);
  });
});

describe('broken connections and stalls', () => {
  it('a reset before any content is retried', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'reset', afterBytes: 0 });
    const events = await collect(provider());
    expect(events.at(-1)?.type).toBe('message-end');
    expect(mock.requests).toHaveLength(2);
  });

  it('a reset after content ends in one terminal network error', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'reset', afterBytes: 450 } }], repeatLast: true });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(lastError(events)?.reason).toBe('network');
    expect(mock.requests).toHaveLength(1);
  });

  it('a truncated stream (no message-end) is an error, not a silent success', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'truncate' } }] });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(lastError(events)?.reason).toBe('network');
  });

  it('a stall before the first event is retried, and ends as a first-byte stall', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'stall' } }], repeatLast: true });
    const events = await collect(provider({ retry: { maxRetries: 1, sleep: async () => undefined } }));
    const error = lastError(events);
    expect(isStreamStallError(error) && error.stallKind).toBe('first-byte');
    expect(mock.requests).toHaveLength(2);
  });

  it('a stall after content ends as an idle stall', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'stall', afterEvents: 3 } }] });
    const events = await collect(provider());
    expectWellFormed(events);
    const error = lastError(events);
    expect(isStreamStallError(error) && error.stallKind).toBe('idle');
  });

  it('SSE keep-alive comments alone do not count as progress', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'stall', afterEvents: 2, pingIntervalMs: 20 } }] });
    const events = await collect(provider({ retry: { maxRetries: 0 } }));
    expect(lastError(events)?.reason).toBe('stream_stall');
  });

  it('createMessage: a body cut in half is retried; a stalled body is a stall', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'truncate' });
    const response = await provider().createMessage(helloRequest);
    expect(response.message.content).toEqual([{ type: 'text', text: 'The port is 8000.' }]);
    expect(mock.requests).toHaveLength(2);
    mock.injectFault({ kind: 'stall' }, { times: 5 });
    await expect(provider({ retry: { maxRetries: 0 } }).createMessage(helloRequest)).rejects.toMatchObject({
      reason: 'stream_stall',
    });
  });

  it('aborting mid-stream ends promptly with an aborted error', async () => {
    mock.setScript({ steps: [{ ...textTurn, chunking: { textDelta: 1, delayMs: 50 } }] });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    const started = Date.now();
    for await (const event of provider().streamMessage(helloRequest, { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    expect(lastError(events)?.reason).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(1_000);
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
  it('malformed argument JSON becomes inputError with input {}, streamed or not', async () => {
    mock.setScript({ steps: [{ ...toolTurn, fault: { kind: 'malformed_tool_arguments' } }], repeatLast: true });
    const events = await collect(provider());
    expectWellFormed(events);
    const ends = events.filter((event) => event.type === 'tool-call-end');
    expect(ends).toHaveLength(2);
    for (const end of ends) {
      expect(end.type === 'tool-call-end' && end.input).toEqual({});
      expect(end.type === 'tool-call-end' && end.inputError?.kind).toBe('invalid-json');
    }
    const created = await provider().createMessage(helloRequest);
    const kinds = created.message.content.flatMap((block) =>
      block.type === 'tool_use' ? [block.inputError?.kind] : [],
    );
    expect(kinds).toEqual(['invalid-json', 'invalid-json']);
  });

  it('duplicate ids are made unique with _2', async () => {
    mock.setScript({ steps: [{ ...toolTurn, fault: { kind: 'duplicate_tool_ids' } }], repeatLast: true });
    const response = await assembleMessage(await collect(provider()));
    const ids = response.message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    expect(ids).toEqual([ids[0], `${ids[0]}_2`]);
    const created = await provider().createMessage(helloRequest);
    const createdIds = created.message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    expect(createdIds).toEqual([createdIds[0], `${createdIds[0]}_2`]);
  });

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
