import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MockServer, type MockTurn, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import { isLlmError } from '../../spec/llm-error.js';
import { isContextOverflowError, isMissingApiKeyError, isRedirectError } from '../../spec/llm-error-classes.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { collect, expectWellFormed, helloRequest } from './anthropic-messages.test.helpers.js';
import { type AnthropicMessagesSettings, createAnthropicMessagesProvider } from './anthropic-messages-provider.js';

// Every fault the testkit can inject, against this adapter: what the caller sees and how many
// requests it took. Retries sleep through an injected function, so nothing here waits on backoff.

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

const textTurn: MockTurn = { text: 'The port is 8000, as the config says.', chunking: { textDelta: 4 } };
const toolTurn: MockTurn = {
  content: [
    { type: 'tool_call', name: 'read', input: { path: 'a.txt' } },
    { type: 'tool_call', name: 'read', input: { path: 'b.txt' } },
  ],
};

function provider(settings: AnthropicMessagesSettings = {}) {
  return createAnthropicMessagesProvider({
    baseURL: mock.url,
    apiKey: 'fault-test-key-0123456789',
    retry: {
      maxRetries: 2,
      sleep: async (ms: number) => {
        sleeps.push(ms);
      },
    },
    stall: { firstByteTimeoutMs: 300, idleTimeoutMs: 300 },
    ...settings,
  });
}

function lastError(events: readonly StreamEvent[]) {
  const last = events.at(-1);
  return last?.type === 'error' ? last.error : undefined;
}

describe('HTTP errors', () => {
  it.each([
    ['quota', 'quota', 400],
    ['auth', 'auth', 401],
    ['permission', 'permission', 403],
    ['not_found', 'not_found', 404],
    ['invalid_request', 'invalid_request', 400],
  ] as const)('%s ends as %s (HTTP %i) after one request, not retried', async (kind, reason, status) => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'http_error', error: kind } }], repeatLast: true });
    const events = await collect(provider());
    expect(events).toHaveLength(1);
    const error = lastError(events);
    expect(error?.reason).toBe(reason);
    expect(error?.status).toBe(status);
    expect(error?.isRetryable).toBe(false);
    expect(error?.message).not.toContain('fault-test-key');
    expect(mock.requests).toHaveLength(1);
  });

  it('context overflow carries the token counts of "prompt is too long: N tokens > M maximum"', async () => {
    mock.setScript({
      steps: [
        {
          ...textTurn,
          fault: { kind: 'http_error', error: 'context_overflow', requestedTokens: 210_512, limitTokens: 200_000 },
        },
      ],
    });
    const error = lastError(await collect(provider()));
    expect(isContextOverflowError(error)).toBe(true);
    expect(isContextOverflowError(error) && [error.requestedTokens, error.limitTokens]).toEqual([210_512, 200_000]);
    expect(mock.requests).toHaveLength(1);
  });

  it('createMessage rejects with the same classified error', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'http_error', error: 'quota' } }] });
    await expect(provider().createMessage(helloRequest)).rejects.toMatchObject({ reason: 'quota', status: 400 });
    expect(mock.requests).toHaveLength(1);
  });

  it('a rate limit is retried after the retry-after the server asked for', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'http_error', error: 'rate_limit', retryAfterSeconds: 3 });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(events.at(-1)?.type).toBe('message-end');
    expect(sleeps).toEqual([3000]);
    expect(mock.requests).toHaveLength(2);
  });

  it('a retry-after beyond the cap fails at once', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'http_error', error: 'rate_limit', retryAfterSeconds: 120 });
    const error = lastError(await collect(provider()));
    expect(error?.reason).toBe('rate_limit');
    expect(error?.retryAfterMs).toBe(120_000);
    expect(sleeps).toEqual([]);
    expect(mock.requests).toHaveLength(1);
  });

  it.each([
    ['overloaded', 529],
    ['server', 500],
  ] as const)('%s (HTTP %i) is retried and the retry emits nothing twice', async (kind, status) => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'http_error', error: kind }, { times: 2 });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(events.filter((event) => event.type === 'message-start')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'text-start')).toHaveLength(1);
    expect((await assembleMessage(events)).message.content).toEqual([
      { type: 'text', text: 'The port is 8000, as the config says.' },
    ]);
    expect(mock.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);

    mock.clearRequests();
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'http_error', error: kind } }], repeatLast: true });
    const error = lastError(await collect(provider()));
    expect([error?.reason, error?.status]).toEqual([kind, status]);
    expect(mock.requests).toHaveLength(3);
  });
});

describe('broken streams', () => {
  it('a reset before any content is retried', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'reset', afterBytes: 0 });
    const events = await collect(provider());
    expect(events.at(-1)?.type).toBe('message-end');
    expect(mock.requests).toHaveLength(2);
  });

  it('a reset after content ends with one terminal network error', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'reset', afterBytes: 900 } }], repeatLast: true });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(lastError(events)?.reason).toBe('network');
    expect(mock.requests).toHaveLength(1);
  });

  it('a truncated stream (no message_delta / message_stop) is an error, not a success', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'truncate' } }], repeatLast: true });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(lastError(events)?.reason).toBe('network');
    expect(mock.requests).toHaveLength(1);
  });

  it.each([
    ['after the headers', { kind: 'stall' as const }, 3],
    ['with only pings', { kind: 'stall' as const, pingIntervalMs: 20 }, 3],
    ['after content', { kind: 'stall' as const, afterEvents: 5 }, 1],
    ['after content, then only pings', { kind: 'stall' as const, afterEvents: 5, pingIntervalMs: 20 }, 1],
  ])('a stall %s ends as stream_stall', async (_when, fault, requests) => {
    mock.setScript({ steps: [{ ...textTurn, fault }], repeatLast: true });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(lastError(events)?.reason).toBe('stream_stall');
    expect(mock.requests).toHaveLength(requests);
  });

  it('an in-stream error before any content is retried', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'mid_stream_error', afterEvents: 2, error: 'overloaded' });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(events.at(-1)?.type).toBe('message-end');
    expect(events.filter((event) => event.type === 'text-start')).toHaveLength(1);
    expect(mock.requests).toHaveLength(2);
  });

  it('an in-stream overloaded_error after content is terminal with reason overloaded', async () => {
    mock.setScript({
      steps: [{ ...textTurn, fault: { kind: 'mid_stream_error', afterEvents: 5, error: 'overloaded' } }],
    });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(lastError(events)?.reason).toBe('overloaded');
    expect(mock.requests).toHaveLength(1);
  });

  it('an in-stream error is classified by the same wording table (context overflow with counts)', async () => {
    mock.setScript({
      steps: [{ ...textTurn, fault: { kind: 'mid_stream_error', afterEvents: 5, error: 'context_overflow' } }],
    });
    const error = lastError(await collect(provider()));
    expect(isContextOverflowError(error)).toBe(true);
    expect(isContextOverflowError(error) && error.limitTokens).toBe(200_000);
  });
});

describe('broken tool calls', () => {
  it('malformed argument JSON gives inputError with input {} in both paths', async () => {
    const turn: MockTurn = { ...toolTurn, fault: { kind: 'malformed_tool_arguments' } };
    mock.setScript({ steps: [turn, turn] });
    const events = await collect(provider());
    const ends = events.filter((event) => event.type === 'tool-call-end');
    expect(ends).toHaveLength(2);
    for (const end of ends) {
      expect(end.type === 'tool-call-end' && [end.input, end.inputError?.kind]).toEqual([{}, 'invalid-json']);
    }
    const created = await provider().createMessage(helloRequest);
    for (const block of created.message.content) {
      expect(block.type === 'tool_use' && [block.input, block.inputError?.kind]).toEqual([{}, 'invalid-json']);
    }
  });

  it('duplicate ids get _2; missing ids become call_<index>', async () => {
    mock.setScript({
      steps: [
        { ...toolTurn, fault: { kind: 'duplicate_tool_ids' } },
        { ...toolTurn, fault: { kind: 'missing_tool_ids' } },
        { ...toolTurn, fault: { kind: 'duplicate_tool_ids' } },
      ],
    });
    const ids = (response: Awaited<ReturnType<typeof assembleMessage>>) =>
      response.message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    const duplicated = ids(await assembleMessage(await collect(provider())));
    expect(duplicated[1]).toBe(`${duplicated[0]}_2`);
    expect(ids(await assembleMessage(await collect(provider())))).toEqual(['call_0', 'call_1']);
    const created = ids(await provider().createMessage(helloRequest));
    expect(created[1]).toBe(`${created[0]}_2`);
  });
});

describe('calls that never reach a model', () => {
  it('aborting mid-stream ends promptly with an aborted error', async () => {
    mock.setScript({ steps: [{ text: 'x'.repeat(200), chunking: { textDelta: 1, delayMs: 20 } }] });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    const started = Date.now();
    for await (const event of provider().streamMessage(helloRequest, { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    expect(Date.now() - started).toBeLessThan(2_000);
    expectWellFormed(events);
    expect(lastError(events)?.reason).toBe('aborted');
  });

  it('an aborted createMessage rejects with aborted', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'stall' } }] });
    const controller = new AbortController();
    const pending = provider({ stall: false }).createMessage(helloRequest, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ reason: 'aborted' });
  });

  it('a missing key is an auth error naming the variable, sent nowhere', async () => {
    const events = await collect(provider({ apiKey: undefined, env: {} }));
    const error = lastError(events);
    expect(isMissingApiKeyError(error)).toBe(true);
    expect(error?.message).toContain('ANTHROPIC_API_KEY');
    expect(mock.requests).toHaveLength(0);
  });

  it('a redirect to another origin is refused, the key never sent there', async () => {
    const redirector: Server = createServer((_request, response) => {
      response.writeHead(307, { location: 'http://localhost:9/v1/messages' }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const port = (redirector.address() as AddressInfo).port;
      const events = await collect(provider({ baseURL: `http://127.0.0.1:${port}` }));
      const error = lastError(events);
      expect(isRedirectError(error)).toBe(true);
      expect(isLlmError(error) && error.isRetryable).toBe(false);
    } finally {
      await new Promise<void>((resolve) => redirector.close(() => resolve()));
    }
  });
});
