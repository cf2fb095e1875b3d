import { type MockErrorKind, type MockServer, type MockTurn, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  mock.setScript({ steps: [textTurn], repeatLast: true });
  mock.clearRequests();
});

function provider(settings: OllamaSettings = {}) {
  return createOllamaProvider({
    baseURL: mock.url,
    env: {},
    retry: { maxRetries: 2, sleep: async () => {} },
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
  // Reasons and request counts are the cross-adapter suite's; here, Ollama's statuses.
  it.each([
    ['auth', 401],
    ['permission', 403],
    ['not_found', 404],
    ['invalid_request', 400],
    ['quota', 429],
    ['context_overflow', 400],
    ['overloaded', 503],
    ['server', 500],
    ['rate_limit', 429],
  ] as const)('%s is HTTP %i from ollama', async (kind, status) => {
    mock.setScript({
      steps: [{ ...textTurn, fault: { kind: 'http_error', error: kind as MockErrorKind } }],
      repeatLast: true,
    });
    const error = failure(await stream());
    expect(error.status).toBe(status);
    expect(error.providerId).toBe('ollama');
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

  it('sends the key from OLLAMA_API_KEY as a Bearer token, and none without it', async () => {
    await collectEvents(provider({ env: { OLLAMA_API_KEY: 'ollama-cloud-key-1234' } }).streamMessage(request));
    await collectEvents(provider().streamMessage(request));
    expect(mock.requests[0]?.headers.authorization).toBe('Bearer ***1234');
    expect(mock.requests[1]?.headers.authorization).toBeUndefined();
  });
});

describe('broken streams', () => {
  it('a stream that stops before its done line is an error, not a success', async () => {
    mock.injectFault({ kind: 'truncate' });
    const events = await stream();
    expect(failure(events).reason).toBe('network');
  });

  it('a truncated whole body rejects createMessage', async () => {
    mock.injectFault({ kind: 'truncate' }, { times: 3 });
    await expect(provider().createMessage(request)).rejects.toMatchObject({ reason: 'network' });
  });

  it('a stall with keep-alive pings before the first line is retried', async () => {
    mock.injectFault({ kind: 'stall', pingIntervalMs: 20 });
    expect((await stream(shortStall)).at(-1)?.type).toBe('message-end');
    expect(mock.requests).toHaveLength(2);
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
  it('malformed arguments do not end the stream in an error', async () => {
    mock.setScript({ steps: [{ ...toolTurn, fault: { kind: 'malformed_tool_arguments' } }] });
    expect((await stream()).at(-1)?.type).toBe('message-end');
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
