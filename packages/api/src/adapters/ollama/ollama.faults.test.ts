import { type MockErrorKind, type MockServer, type MockTurn, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import type { LlmError } from '../../spec/llm-error.js';
import { isContextOverflowError, isQuotaExceededError } from '../../spec/llm-error-classes.js';
import type { LlmRequest } from '../../spec/request.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { collectEvents, expectWellFormed } from '../../test/stream-contract.js';
import { createOllamaProvider, type OllamaSettings } from './ollama-provider.js';

const request: LlmRequest = { model: 'qwen3:8b', messages: [{ role: 'user', content: 'Hi' }] };
const textTurn: MockTurn = { text: 'The port is 8000, as configured.', chunking: { textDelta: 6 } };
const toolTurn: MockTurn = {
  content: [
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

function provider(settings: OllamaSettings = {}) {
  return createOllamaProvider({
    baseURL: mock.url,
    env: {},
    retry: { maxRetries: 2, sleep: async (ms: number) => void sleeps.push(ms) },
    stall: { firstByteTimeoutMs: 5_000, idleTimeoutMs: 5_000 },
    ...settings,
  });
}

async function stream(settings: OllamaSettings = {}): Promise<StreamEvent[]> {
  const events = await collectEvents(provider(settings).streamMessage(request));
  expectWellFormed(events);
  return events;
}

const shortStall = { stall: { firstByteTimeoutMs: 300, idleTimeoutMs: 300 } };

function failure(events: StreamEvent[]): LlmError {
  const last = events.at(-1);
  if (last?.type !== 'error') throw new Error(`expected an error event, got ${last?.type}`);
  return last.error;
}

describe('HTTP errors', () => {
  it.each([
    ['auth', 'auth', 401, 1],
    ['permission', 'permission', 403, 1],
    ['not_found', 'not_found', 404, 1],
    ['invalid_request', 'invalid_request', 400, 1],
    ['quota', 'quota', 429, 1],
    ['context_overflow', 'context_overflow', 400, 1],
    ['overloaded', 'overloaded', 503, 3],
    ['server', 'server', 500, 3],
    ['rate_limit', 'rate_limit', 429, 3],
  ] as const)('%s is reason %s (HTTP %i) after %i request(s)', async (kind, reason, status, requests) => {
    mock.setScript({
      steps: [{ ...textTurn, fault: { kind: 'http_error', error: kind as MockErrorKind } }],
      repeatLast: true,
    });
    const events = await stream();
    expect(events).toHaveLength(1);
    const error = failure(events);
    expect(error.reason).toBe(reason);
    expect(error.status).toBe(status);
    expect(error.providerId).toBe('ollama');
    expect(mock.requests).toHaveLength(requests);
  });

  it('a missing model says to pull it', async () => {
    mock.injectFault({ kind: 'http_error', error: 'not_found' });
    const error = failure(await stream());
    expect(error.message).toContain('ollama pull qwen3:8b');
    await expect(
      (async () => {
        mock.injectFault({
          kind: 'http_error',
          error: 'not_found',
          message: "model 'llama9' not found, try pulling it first",
        });
        return provider().createMessage(request);
      })(),
    ).rejects.toMatchObject({ reason: 'not_found', message: expect.stringContaining('`ollama pull llama9`') });
  });

  it('a context overflow is recognised although Ollama states no token counts', async () => {
    mock.injectFault({ kind: 'http_error', error: 'context_overflow' });
    const error = failure(await stream());
    expect(isContextOverflowError(error)).toBe(true);
    expect(error).toMatchObject({ requestedTokens: undefined, limitTokens: undefined });
  });

  it('the weekly cloud limit is a quota and not retried', async () => {
    mock.injectFault({ kind: 'http_error', error: 'quota', retryAfterSeconds: 1 }, { times: 3 });
    expect(isQuotaExceededError(failure(await stream()))).toBe(true);
    expect(mock.requests).toHaveLength(1);
  });

  it('a rate limit is retried after retry-after; one beyond the cap fails at once', async () => {
    mock.injectFault({ kind: 'http_error', error: 'rate_limit', retryAfterSeconds: 3 });
    expect((await stream()).at(-1)?.type).toBe('message-end');
    expect(sleeps).toEqual([3_000]);
    mock.clearRequests();
    mock.injectFault({ kind: 'http_error', error: 'rate_limit', retryAfterSeconds: 600 });
    expect(failure(await stream()).retryAfterMs).toBe(600_000);
    expect(mock.requests).toHaveLength(1);
  });

  it('a busy server is retried and the retry emits nothing twice', async () => {
    mock.injectFault({ kind: 'http_error', error: 'overloaded' });
    const events = await stream();
    expect(mock.requests).toHaveLength(2);
    expect(events.filter((event) => event.type === 'message-start')).toHaveLength(1);
    expect((await assembleMessage(events)).message.content).toEqual([
      { type: 'text', text: 'The port is 8000, as configured.' },
    ]);
  });

  it('sends the key from OLLAMA_API_KEY as a Bearer token, and none without it', async () => {
    await collectEvents(provider({ env: { OLLAMA_API_KEY: 'ollama-cloud-key-1234' } }).streamMessage(request));
    await collectEvents(provider().streamMessage(request));
    expect(mock.requests[0]?.headers.authorization).toBe('Bearer ***1234');
    expect(mock.requests[1]?.headers.authorization).toBeUndefined();
  });
});

describe('broken streams', () => {
  it('a reset before any content is retried; after content it is one network error', async () => {
    mock.injectFault({ kind: 'reset', afterBytes: 0 });
    expect((await stream()).at(-1)?.type).toBe('message-end');
    expect(mock.requests).toHaveLength(2);

    mock.clearRequests();
    mock.injectFault({ kind: 'reset', afterBytes: 300 });
    const events = await stream();
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(failure(events).reason).toBe('network');
    expect(mock.requests).toHaveLength(1);
  });

  it('a stream that stops before its done line is an error, not a success', async () => {
    mock.injectFault({ kind: 'truncate' });
    const events = await stream();
    expect(failure(events).reason).toBe('network');
  });

  it('a truncated whole body rejects createMessage', async () => {
    mock.injectFault({ kind: 'truncate' }, { times: 3 });
    await expect(provider().createMessage(request)).rejects.toMatchObject({ reason: 'network' });
  });

  it('a stall before the first line is retried; after content it is a terminal stream_stall', async () => {
    mock.injectFault({ kind: 'stall', pingIntervalMs: 20 });
    expect((await stream(shortStall)).at(-1)?.type).toBe('message-end');
    expect(mock.requests).toHaveLength(2);

    mock.clearRequests();
    mock.injectFault({ kind: 'stall', afterEvents: 2 });
    const events = await stream(shortStall);
    expect(failure(events)).toMatchObject({ reason: 'stream_stall', stallKind: 'idle' });
  });

  it('an error line before content is retried; after content it ends the stream with its reason', async () => {
    mock.injectFault({ kind: 'mid_stream_error', afterEvents: 0, error: 'overloaded' });
    expect((await stream()).at(-1)?.type).toBe('message-end');
    expect(mock.requests).toHaveLength(2);

    mock.clearRequests();
    mock.injectFault({ kind: 'mid_stream_error', afterEvents: 2, error: 'overloaded' });
    const events = await stream();
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(failure(events)).toMatchObject({ reason: 'overloaded', status: undefined });
    expect(mock.requests).toHaveLength(1);
  });
});

describe('broken tool calls', () => {
  it('malformed arguments give inputError with input {}', async () => {
    mock.setScript({ steps: [{ ...toolTurn, fault: { kind: 'malformed_tool_arguments' } }] });
    const response = await assembleMessage(await stream());
    const calls = response.message.content.filter((block) => block.type === 'tool_use');
    expect(calls).toHaveLength(2);
    for (const call of calls) expect(call).toMatchObject({ input: {}, inputError: { kind: 'invalid-json' } });
  });

  it('duplicate ids are made unique with _2', async () => {
    mock.setScript({ steps: [{ ...toolTurn, fault: { kind: 'duplicate_tool_ids' } }] });
    const response = await assembleMessage(await stream());
    const ids = response.message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    const [first] = ids;
    expect(ids).toEqual([first, `${first}_2`]);
  });
});

describe('cancellation', () => {
  it('aborting mid-stream ends promptly with an aborted error', async () => {
    mock.setScript({ steps: [{ ...textTurn, chunking: { textDelta: 1, delayMs: 50 } }] });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    const started = Date.now();
    for await (const event of provider().streamMessage(request, { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    expectWellFormed(events);
    expect(failure(events).reason).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('aborting a createMessage rejects with aborted', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'stall' } }] });
    const controller = new AbortController();
    const pending = provider().createMessage(request, { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(pending).rejects.toMatchObject({ reason: 'aborted' });
  });
});
