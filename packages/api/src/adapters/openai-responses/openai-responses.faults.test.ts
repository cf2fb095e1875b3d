import { type MockFault, type MockServer, type MockTurn, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isContextOverflowError } from '../../spec/llm-error-classes.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { assemble, collectEvents, contractViolations, writeChunks } from './openai-responses.test-helpers.js';
import { createOpenAIResponsesProvider, type OpenAIResponsesSettings } from './openai-responses-provider.js';

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

function provider(settings: OpenAIResponsesSettings = {}) {
  return createOpenAIResponsesProvider({
    baseURL: `${mock.url}/v1`,
    apiKey: 'sk-test-faults-0001',
    retry: {
      maxRetries: 2,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    },
    // Generous by default so a loaded machine never stalls by accident; stall tests pass short ones.
    stall: { firstByteTimeoutMs: 5_000, idleTimeoutMs: 5_000 },
    ...settings,
  });
}

const request = {
  model: 'gpt-test',
  messages: [{ role: 'user' as const, content: 'Go' }],
  tools: [{ name: 'lookup', description: 'Look up', inputSchema: { type: 'object' } }],
};

const textTurn: MockTurn = { text: 'The port is 8000 and the host is example.org.', usage: { input: 12, output: 9 } };
const toolTurn: MockTurn = {
  content: [
    { type: 'text', text: 'Looking it up.' },
    { type: 'tool_call', name: 'lookup', input: { query: 'port', days: 3 } },
    { type: 'tool_call', name: 'lookup', input: { query: 'host' } },
  ],
};

async function run(turn: MockTurn, settings: OpenAIResponsesSettings = {}): Promise<StreamEvent[]> {
  mock.setScript({ steps: [turn], repeatLast: true });
  mock.clearRequests();
  return collectEvents(provider(settings), request);
}

function lastError(events: readonly StreamEvent[]) {
  const last = events.at(-1);
  if (last?.type !== 'error') throw new Error(`expected a terminal error, got ${last?.type}`);
  return last.error;
}

describe('HTTP errors', () => {
  // Reasons and request counts are the cross-adapter suite's; here, the provider id and a wait before each retry.
  it.each([
    ['quota', 1],
    ['auth', 1],
    ['permission', 1],
    ['not_found', 1],
    ['invalid_request', 1],
    ['context_overflow', 1],
    ['overloaded', 3],
    ['server', 3],
    ['rate_limit', 3],
  ] as const)(
    '%s is reported by openai-responses after %i request(s), waiting before each retry',
    async (kind, requests) => {
      const error = lastError(await run({ ...textTurn, fault: { kind: 'http_error', error: kind } }));
      expect(error.providerId).toBe('openai-responses');
      expect(sleeps).toHaveLength(requests - 1);
    },
  );

  it('quota (429 insufficient_quota) is not a retryable rate limit', async () => {
    const error = lastError(await run({ ...textTurn, fault: { kind: 'http_error', error: 'quota' } }));
    expect(error.status).toBe(429);
    expect(error.reason).toBe('quota');
    expect(error.isRetryable).toBe(false);
  });

  it('context overflow is a ContextOverflowError; the Responses wording states no token counts', async () => {
    const error = lastError(
      await run({
        ...textTurn,
        fault: { kind: 'http_error', error: 'context_overflow', requestedTokens: 9, limitTokens: 8 },
      }),
    );
    expect(isContextOverflowError(error)).toBe(true);
    expect(error.status).toBe(400);
    expect(error).toMatchObject({ requestedTokens: undefined, limitTokens: undefined });
  });

  it('context overflow with counts in the message carries them', async () => {
    const message =
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130500 tokens.";
    const error = lastError(
      await run({ ...textTurn, fault: { kind: 'http_error', error: 'context_overflow', message } }),
    );
    expect(error).toMatchObject({ reason: 'context_overflow', requestedTokens: 130_500, limitTokens: 128_000 });
  });

  it('prefers retry-after-ms', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault(
      { kind: 'http_error', error: 'rate_limit', retryAfterMs: 1_500, retryAfterSeconds: 9 },
      { times: 1 },
    );
    const events = await collectEvents(provider(), request);
    expect(events.at(-1)?.type).toBe('message-end');
    expect(sleeps).toEqual([1_500]);
  });
});

describe('broken connections and streams', () => {
  it('a stream truncated after content is a network error', async () => {
    const events = await run({ ...textTurn, fault: { kind: 'truncate' } });
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(lastError(events).reason).toBe('network');
  });

  it.each([
    ['a stall before the first event', { kind: 'stall' } as MockFault, 3, 'first-byte'],
    [
      'a stall with only keep-alive comments (past keepAliveTimeoutMs)',
      { kind: 'stall', pingIntervalMs: 20 } as MockFault,
      3,
      'keep-alive-only',
    ],
    ['a stall after content', { kind: 'stall', afterEvents: 6 } as MockFault, 1, 'idle'],
  ])('%s (%j) ends as stream_stall', async (_name, fault, requests, stallKind) => {
    const started = Date.now();
    const events = await run(
      { ...textTurn, chunking: { textDelta: 3 }, fault },
      {
        stall: { firstByteTimeoutMs: 150, idleTimeoutMs: 150, keepAliveTimeoutMs: 400 },
      },
    );
    expect(lastError(events)).toMatchObject({ reason: 'stream_stall', stallKind });
    expect(mock.requests).toHaveLength(requests);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe('in-stream errors', () => {
  it('an error event before any content is retried and the retry succeeds', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'mid_stream_error', afterEvents: 2, error: 'server' }, { times: 1 });
    const events = await collectEvents(provider(), request);
    expect(contractViolations(events)).toEqual([]);
    expect(mock.requests).toHaveLength(2);
    expect(events.filter((event) => event.type === 'message-start')).toHaveLength(1);
  });

  it.each([
    ['overloaded', 'overloaded', true],
    ['rate_limit', 'rate_limit', true],
    ['quota', 'quota', false],
    ['context_overflow', 'context_overflow', false],
    ['server', 'server', true],
    ['auth', 'auth', false],
  ] as const)('an %s error event after content ends as one %s error', async (kind, reason, retryable) => {
    const events = await run({ ...toolTurn, fault: { kind: 'mid_stream_error', afterEvents: 6, error: kind } });
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    const error = lastError(events);
    expect(error.reason).toBe(reason);
    expect(error.isRetryable).toBe(retryable);
    expect(error.message).toContain('error event');
    expect(mock.requests).toHaveLength(1);
  });

  it('an insufficient_quota error event before content is not retried', async () => {
    const events = await run({ ...textTurn, fault: { kind: 'mid_stream_error', afterEvents: 1, error: 'quota' } });
    expect(lastError(events).reason).toBe('quota');
    expect(mock.requests).toHaveLength(1);
  });

  it('response.failed is classified by its error code and retried before content', async () => {
    const path = writeChunks([
      { type: 'response.created', response: { id: 'resp_f', status: 'in_progress' } },
      {
        type: 'response.failed',
        response: { id: 'resp_f', status: 'failed', error: { code: 'server_error', message: 'Something broke.' } },
      },
    ]);
    mock.setScript({ steps: [{ replay: path }], repeatLast: true });
    const events = await collectEvents(provider(), request);
    expect(lastError(events)).toMatchObject({ reason: 'server', isRetryable: true });
    expect(lastError(events).message).toContain('failed response');
    expect(mock.requests).toHaveLength(3);
  });
});

describe('broken tool calls', () => {
  it('missing call ids become call_<output index>', async () => {
    const events = await run({ ...toolTurn, fault: { kind: 'missing_tool_ids' } });
    const ids = assemble(events).message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    expect(ids).toEqual(['call_1', 'call_2']);
  });
});
