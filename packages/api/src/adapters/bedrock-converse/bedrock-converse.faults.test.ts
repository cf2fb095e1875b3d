import { type MockErrorKind, type MockServer, type MockTurn, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import type { LlmErrorReason } from '../../spec/llm-error.js';
import { isContextOverflowError, isStreamStallError } from '../../spec/llm-error-classes.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { collect, expectWellFormed, helloRequest, testCredentials } from './bedrock-converse.test.helpers.js';
import { type BedrockConverseSettings, createBedrockConverseProvider } from './bedrock-converse-provider.js';

// Every testkit fault against the Bedrock adapter: HTTP errors in Bedrock's shape, broken
// connections, stalls, in-stream exception frames and broken tool calls.

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

function provider(overrides: Partial<BedrockConverseSettings> = {}) {
  return createBedrockConverseProvider({
    baseURL: mock.url,
    region: 'us-east-1',
    credentials: testCredentials,
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
      expect(lastError(events)?.providerId).toBe('bedrock');
      expect(mock.requests).toHaveLength(requests);
    },
  );

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

  it('retries a throttle after the retry-after the server asked for, repeating nothing', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'http_error', error: 'rate_limit', retryAfterSeconds: 2 });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(sleeps).toEqual([2000]);
    expect(mock.requests).toHaveLength(2);
    expect(events.filter((event) => event.type === 'message-start')).toHaveLength(1);
    expect((await assembleMessage(events)).message.content).toEqual([{ type: 'text', text: 'The port is 8000.' }]);
  });

  it('a retry-after beyond the cap fails at once', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'http_error', error: 'rate_limit', retryAfterSeconds: 120 });
    const events = await collect(
      provider({ retry: { maxRetryAfterMs: 60_000, sleep: async (ms) => void sleeps.push(ms) } }),
    );
    expect(lastError(events)?.reason).toBe('rate_limit');
    expect(lastError(events)?.retryAfterMs).toBe(120_000);
    expect(sleeps).toEqual([]);
    expect(mock.requests).toHaveLength(1);
  });

  it("an overload is retried and the retry's events are not duplicated", async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'http_error', error: 'overloaded' }, { times: 2 });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(mock.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    expect(events.filter((event) => event.type === 'text-start')).toHaveLength(1);
    expect((await assembleMessage(events)).message.content).toEqual([{ type: 'text', text: 'The port is 8000.' }]);
  });

  it('createMessage rejects with the classified error, and does not retry a quota error', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'http_error', error: 'quota' } }], repeatLast: true });
    await expect(provider().createMessage(helloRequest)).rejects.toMatchObject({ reason: 'quota', status: 400 });
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
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'reset', afterBytes: 400 } }], repeatLast: true });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(lastError(events)?.reason).toBe('network');
    expect(mock.requests).toHaveLength(1);
  });

  it('a truncated stream (no messageStop, no metadata) is an error, not a silent success', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'truncate' } }], repeatLast: true });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(lastError(events)?.reason).toBe('network');
  });

  it('a stall before the first event is retried, then a stall every time ends as stream_stall', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'stall' } }], repeatLast: true });
    const events = await collect(provider({ retry: { maxRetries: 1, sleep: async () => undefined } }));
    const error = lastError(events);
    expect(isStreamStallError(error) && error.stallKind).toBe('first-byte');
    expect(mock.requests).toHaveLength(2);
  });

  it('a stall after content ends as stream_stall (idle)', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'stall', afterEvents: 3 } }] });
    const events = await collect(provider());
    expectWellFormed(events);
    const error = lastError(events);
    expect(isStreamStallError(error) && error.stallKind).toBe('idle');
  });

  it('a stall with keep-alives only (Bedrock has none, so nothing arrives) is a stall too', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'stall', pingIntervalMs: 20 } }] });
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
    const calls = created.message.content.filter((block) => block.type === 'tool_use');
    expect(calls.map((call) => call.type === 'tool_use' && call.inputError?.kind)).toEqual([
      'invalid-json',
      'invalid-json',
    ]);
  });

  it('duplicate ids are made unique with _2', async () => {
    mock.setScript({ steps: [{ ...toolTurn, fault: { kind: 'duplicate_tool_ids' } }], repeatLast: true });
    const response = await assembleMessage(await collect(provider()));
    const ids = response.message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(`${ids[0]}_2`);
    const created = await provider().createMessage(helloRequest);
    const createdIds = created.message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    expect(createdIds).toEqual([createdIds[0], `${createdIds[0]}_2`]);
  });

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
