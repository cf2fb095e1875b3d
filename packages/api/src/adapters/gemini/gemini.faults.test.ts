import { type MockErrorKind, type MockServer, type MockTurn, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import type { LlmError } from '../../spec/llm-error.js';
import { isContextOverflowError, isMissingApiKeyError, isQuotaExceededError } from '../../spec/llm-error-classes.js';
import type { LlmRequest } from '../../spec/request.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { collectEvents, expectWellFormed } from '../../test/stream-contract.js';
import { createGeminiProvider, type GeminiSettings } from './gemini-provider.js';

const request: LlmRequest = { model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Hi' }] };
const textTurn: MockTurn = { text: 'The port is 8000, as configured.', chunking: { textDelta: 6 } };
const toolTurn: MockTurn = {
  content: [
    { type: 'text', text: 'Reading.' },
    { type: 'tool_call', name: 'read', input: { path: 'a.txt' } },
    { type: 'tool_call', name: 'read', input: { path: 'b.txt' } },
  ],
};

const sleeps: number[] = [];
let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  sleeps.length = 0;
  mock.setScript({ steps: [textTurn], repeatLast: true });
  mock.clearRequests();
});

function provider(settings: GeminiSettings = {}) {
  return createGeminiProvider({
    baseURL: `${mock.url}/v1beta`,
    apiKey: 'gemini-test-key-0123456789',
    retry: { maxRetries: 2, sleep: async (ms: number) => void sleeps.push(ms) },
    stall: { firstByteTimeoutMs: 5_000, idleTimeoutMs: 5_000 },
    ...settings,
  });
}

async function stream(settings: GeminiSettings = {}): Promise<StreamEvent[]> {
  const events = await collectEvents(provider(settings).streamMessage(request));
  expectWellFormed(events);
  return events;
}

const shortStall = { stall: { firstByteTimeoutMs: 300, idleTimeoutMs: 300, keepAliveTimeoutMs: 600 } };

function failure(events: StreamEvent[]): LlmError {
  const last = events.at(-1);
  if (last?.type !== 'error') throw new Error(`expected an error event, got ${last?.type}`);
  return last.error;
}

describe('HTTP errors', () => {
  // Reasons and request counts are the cross-adapter suite's; here, Gemini's statuses and the key redaction.
  it.each([
    ['auth', 400],
    ['permission', 403],
    ['not_found', 404],
    ['invalid_request', 400],
    ['quota', 429],
    ['context_overflow', 400],
    ['overloaded', 503],
    ['server', 500],
    ['rate_limit', 429],
  ] as const)('%s is HTTP %i from gemini, without the key in the message', async (kind, status) => {
    mock.setScript({
      steps: [{ ...textTurn, fault: { kind: 'http_error', error: kind as MockErrorKind } }],
      repeatLast: true,
    });
    const error = failure(await stream());
    expect(error.status).toBe(status);
    expect(error.providerId).toBe('gemini');
    expect(error.message).not.toContain('gemini-test-key-0123456789');
  });

  it('context overflow carries the token counts Gemini states', async () => {
    mock.injectFault({
      kind: 'http_error',
      error: 'context_overflow',
      requestedTokens: 1_200_000,
      limitTokens: 1_048_576,
    });
    const error = failure(await stream());
    expect(isContextOverflowError(error)).toBe(true);
    expect(error).toMatchObject({ requestedTokens: 1_200_000, limitTokens: 1_048_576 });
  });

  it('a daily quota (QuotaFailure per day) is not retried even with a RetryInfo delay', async () => {
    mock.injectFault({ kind: 'http_error', error: 'quota', retryAfterMs: 1_000 }, { times: 3 });
    const error = failure(await stream());
    expect(isQuotaExceededError(error)).toBe(true);
    expect(error.message).toContain('GenerateRequestsPerDayPerProjectPerModel-FreeTier');
    expect(mock.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('a rate limit is retried after the RetryInfo delay the server asked for', async () => {
    mock.injectFault({ kind: 'http_error', error: 'rate_limit', retryAfterMs: 1_500 });
    const events = await stream();
    expect(events.at(-1)?.type).toBe('message-end');
    expect(sleeps).toEqual([1_500]);
    expect(mock.requests).toHaveLength(2);
  });

  it('createMessage rejects with the classified error', async () => {
    mock.injectFault({ kind: 'http_error', error: 'auth' });
    await expect(provider().createMessage(request)).rejects.toMatchObject({ reason: 'auth', status: 400 });
  });

  it('a missing key fails before any request, naming the variables', async () => {
    const events = await stream({ apiKey: undefined, env: {} });
    const error = failure(events);
    expect(isMissingApiKeyError(error)).toBe(true);
    expect(error.message).toContain('GEMINI_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, GOOGLE_API_KEY');
    expect(mock.requests).toHaveLength(0);
  });
});

describe('broken streams', () => {
  it('a stream cut before its finishReason is a network error', async () => {
    mock.injectFault({ kind: 'truncate' });
    expect(failure(await stream()).reason).toBe('network');
  });

  it('a stall after content is a terminal stream_stall, not retried', async () => {
    mock.injectFault({ kind: 'stall', afterEvents: 2 });
    const events = await stream(shortStall);
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(failure(events)).toMatchObject({ reason: 'stream_stall', stallKind: 'idle' });
    expect(mock.requests).toHaveLength(1);
  });

  it('a stream of keep-alive comments only is a stall once keepAliveTimeoutMs has passed', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'stall', pingIntervalMs: 20 } }], repeatLast: true });
    const started = Date.now();
    const error = failure(await stream({ ...shortStall, retry: { maxRetries: 0 } }));
    expect(error).toMatchObject({ reason: 'stream_stall', stallKind: 'keep-alive-only', timeoutMs: 600 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('an in-stream error before content is retried', async () => {
    mock.injectFault({ kind: 'mid_stream_error', afterEvents: 0, error: 'overloaded' });
    const events = await stream();
    expect(events.at(-1)?.type).toBe('message-end');
    expect(mock.requests).toHaveLength(2);
  });

  it.each([
    ['overloaded', 'overloaded'],
    ['rate_limit', 'rate_limit'],
    ['quota', 'quota'],
    ['context_overflow', 'context_overflow'],
  ] as const)('an in-stream %s error after content ends as %s', async (kind, reason) => {
    mock.injectFault({ kind: 'mid_stream_error', afterEvents: 2, error: kind });
    const events = await stream();
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(failure(events).reason).toBe(reason);
    expect(mock.requests).toHaveLength(1);
  });
});

describe('broken tool calls', () => {
  it('malformed arguments do not end the stream in an error', async () => {
    mock.setScript({ steps: [{ ...toolTurn, fault: { kind: 'malformed_tool_arguments' } }] });
    expect((await stream()).at(-1)?.type).toBe('message-end');
  });

  it('a duplicated id is kept as Gemini sent it, in providerMetadata', async () => {
    mock.setScript({ steps: [{ ...toolTurn, fault: { kind: 'duplicate_tool_ids' } }] });
    const response = await assembleMessage(await stream());
    const [first] = response.message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    expect(first).toMatch(/^call_mock\d+$/);
    // The id Gemini sent is kept as received, for the functionResponse that answers each call.
    const metadata = response.message.content.flatMap((block) =>
      block.type === 'tool_use' ? [block.providerMetadata] : [],
    );
    expect(metadata).toEqual([{ gemini: { functionCallId: first } }, { gemini: { functionCallId: first } }]);
  });

  it('missing ids are generated, unique within and across messages', async () => {
    mock.setScript({ steps: [{ ...toolTurn, fault: { kind: 'missing_tool_ids' } }], repeatLast: true });
    const first = await assembleMessage(await stream());
    const second = await assembleMessage(await stream());
    const ids = [first, second].flatMap((response) =>
      response.message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : [])),
    );
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^call_[a-z0-9]+_[12]$/);
  });
});

describe('cancellation', () => {
  it('aborting mid-stream ends promptly with an aborted error', async () => {
    // 200 deltas 50 ms apart: the whole stream would take 10 s, so ending within 5 s shows the abort cut it.
    mock.setScript({ steps: [{ text: 'x'.repeat(200), chunking: { textDelta: 1, delayMs: 50 } }] });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    const started = Date.now();
    for await (const event of provider().streamMessage(request, { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    expectWellFormed(events);
    expect(failure(events).reason).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('aborting a createMessage rejects with aborted', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'stall' } }] });
    const controller = new AbortController();
    const pending = provider().createMessage(request, { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(pending).rejects.toMatchObject({ reason: 'aborted' });
  });
});
