import { type MockServer, type MockTurn, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assembleMessage } from '../shared/message-assembler.js';
import { isStreamStallError } from '../spec/llm-error-classes.js';
import type { AssistantResponse } from '../spec/response.js';
import type { StreamEvent } from '../spec/stream-event.js';
import { expectWellFormed } from '../test/adapter-test-helpers.js';
import { ADAPTERS, type AdapterUnderTest, type ConformanceOptions } from '../test/conformance-adapters.js';

// One scripted conversation, rendered by the mock in each vendor's wire protocol, must come out of
// every adapter as the same message; and every fault of the testkit must end the same way everywhere.

const request = {
  model: 'conformance-model',
  maxOutputTokens: 256,
  messages: [{ role: 'user' as const, content: 'What is in config.toml?' }],
  tools: [
    {
      name: 'read_file',
      description: 'Read a file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  ],
};

const toolTurn: MockTurn = {
  content: [
    { type: 'thinking', thinking: 'The user wants the config; read it first.', signature: 'sig-conformance' },
    { type: 'text', text: 'Let me read the file. 😀 ünïcödé' },
    { type: 'tool_call', name: 'read_file', input: { path: 'config.toml', lines: [1, 2] } },
  ],
  usage: { input: 50, output: 30, reasoning: 10 },
  chunking: { textDelta: 5, argumentsDelta: 4 },
};

const textTurn: MockTurn = { text: 'The port is 8000.', usage: { input: 60, output: 6 } };

let mock: MockServer;
const sleeps: number[] = [];
const fast: ConformanceOptions = {
  retry: {
    maxRetries: 2,
    sleep: async (ms: number) => {
      sleeps.push(ms);
    },
  },
  stall: { firstByteTimeoutMs: 400, idleTimeoutMs: 400 },
};

beforeAll(async () => {
  mock = await startMockServer();
});

afterAll(async () => {
  await mock.close();
});

beforeEach(() => {
  sleeps.length = 0;
});

async function collect(adapter: AdapterUnderTest, turn: MockTurn = toolTurn): Promise<StreamEvent[]> {
  mock.setScript({ steps: [turn], repeatLast: true });
  mock.clearRequests();
  const provider = adapter.create(mock.url, fast);
  const events: StreamEvent[] = [];
  for await (const event of provider.streamMessage(request, {})) events.push(event);
  expectWellFormed(events);
  return events;
}

function terminal(events: StreamEvent[]): StreamEvent | undefined {
  return events[events.length - 1];
}

function errorReason(events: StreamEvent[]): string | undefined {
  const last = terminal(events);
  return last?.type === 'error' ? last.error.reason : undefined;
}

/** What must be identical across vendors: the content and the finish. Ids and metadata differ. */
function essence(response: AssistantResponse) {
  return {
    content: response.message.content.map((block) => {
      switch (block.type) {
        case 'text':
          return { type: 'text', text: block.text };
        case 'thinking':
          return { type: 'thinking', thinking: block.thinking };
        case 'tool_use':
          return { type: 'tool_use', name: block.name, input: block.input, hasId: block.id.length > 0 };
        default:
          return { type: block.type };
      }
    }),
    finish: response.finishReason.unified,
  };
}

describe.each(ADAPTERS.map((adapter) => [adapter.name, adapter] as const))('%s', (_name, adapter) => {
  it('assembles the scripted turn: thinking, text with unicode, a tool call with parsed input', async () => {
    const events = await collect(adapter);
    expect(terminal(events)?.type).toBe('message-end');
    expect(events.filter((event) => event.type === 'message-end' || event.type === 'error')).toHaveLength(1);
    const response = await assembleMessage(events);
    // Cohere sends text before tool calls as its tool_plan, which streams as reasoning (not answer text).
    const planType = adapter.name === 'cohere-v2' ? 'thinking' : 'text';
    const plan = 'Let me read the file. 😀 ünïcödé';
    expect(essence(response)).toEqual({
      content: [
        { type: 'thinking', thinking: 'The user wants the config; read it first.' },
        planType === 'text' ? { type: 'text', text: plan } : { type: 'thinking', thinking: plan },
        { type: 'tool_use', name: 'read_file', input: { path: 'config.toml', lines: [1, 2] }, hasId: true },
      ],
      finish: 'tool-calls',
    });
    expect(response.usage.input.total).toBeGreaterThan(0);
    expect(response.usage.output.total).toBe(30);
  });

  it('createMessage and streamMessage give the same message for the same turn', async () => {
    const streamed = await assembleMessage(await collect(adapter, textTurn));
    const created = await adapter.create(mock.url, fast).createMessage(request, {});
    expect(essence(created)).toEqual(essence(streamed));
    expect(essence(created)).toEqual({ content: [{ type: 'text', text: 'The port is 8000.' }], finish: 'stop' });
    expect(created.usage.output.total).toBe(streamed.usage.output.total);
  });

  it('retries a rate limit, honouring retry-after, and emits nothing twice', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'http_error', error: 'rate_limit', retryAfterSeconds: 2 });
    mock.clearRequests();
    const events: StreamEvent[] = [];
    for await (const event of adapter.create(mock.url, fast).streamMessage(request, {})) events.push(event);
    expectWellFormed(events);
    expect(terminal(events)?.type).toBe('message-end');
    expect(mock.requests).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
    expect(events.filter((event) => event.type === 'message-start')).toHaveLength(1);
    expect((await assembleMessage(events)).message.content).toMatchObject([
      { type: 'text', text: 'The port is 8000.' },
    ]);
  });

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
  ] as const)('an http %s error ends as %s after %i request(s)', async (error, reason, attempts) => {
    mock.setScript({
      steps: [{ ...textTurn, fault: { kind: 'http_error', error, requestedTokens: 210_000, limitTokens: 200_000 } }],
      repeatLast: true,
    });
    mock.clearRequests();
    const events: StreamEvent[] = [];
    for await (const event of adapter.create(mock.url, fast).streamMessage(request, {})) events.push(event);
    expectWellFormed(events);
    expect(errorReason(events)).toBe(reason);
    expect(events).toHaveLength(1);
    expect(mock.requests).toHaveLength(attempts);
    const last = terminal(events);
    expect(last?.type === 'error' && last.error.providerId).toBeTruthy();
  });

  it('fails at once when retry-after is beyond the cap, and createMessage rejects quota without retrying', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'http_error', error: 'rate_limit', retryAfterSeconds: 90 });
    mock.clearRequests();
    const capped = adapter.create(mock.url, { ...fast, retry: { ...fast.retry, maxRetryAfterMs: 10_000 } });
    const events: StreamEvent[] = [];
    for await (const event of capped.streamMessage(request, {})) events.push(event);
    expectWellFormed(events);
    expect(terminal(events)).toMatchObject({ type: 'error', error: { reason: 'rate_limit', retryAfterMs: 90_000 } });
    expect(sleeps).toEqual([]);
    expect(mock.requests).toHaveLength(1);
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'http_error', error: 'quota' } }], repeatLast: true });
    mock.clearRequests();
    await expect(adapter.create(mock.url, fast).createMessage(request, {})).rejects.toMatchObject({ reason: 'quota' });
    expect(mock.requests).toHaveLength(1);
  });

  it('an overload is retried and the retry emits nothing twice', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'http_error', error: 'overloaded' }, { times: 2 });
    mock.clearRequests();
    const events: StreamEvent[] = [];
    for await (const event of adapter.create(mock.url, fast).streamMessage(request, {})) events.push(event);
    expectWellFormed(events);
    expect(mock.requests).toHaveLength(3);
    expect(events.filter((event) => event.type === 'text-start')).toHaveLength(1);
    expect((await assembleMessage(events)).message.content).toMatchObject([
      { type: 'text', text: 'The port is 8000.' },
    ]);
  });

  it('a reset after content is one terminal network error, not retried', async () => {
    // A long answer streamed a character at a time: 4,000 bytes hold content in every protocol, not the end.
    const long: MockTurn = { text: 'x'.repeat(4000), chunking: { textDelta: 1 } };
    const events = await collect(adapter, { ...long, fault: { kind: 'reset', afterBytes: 4000 } });
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(errorReason(events)).toBe('network');
    expect(mock.requests).toHaveLength(1);
  });

  it('a stall before the first event ends as a first-byte stall after the retries; after content, as idle', async () => {
    const before = await collect(adapter, { ...textTurn, fault: { kind: 'stall' } });
    const first = terminal(before);
    expect(first?.type === 'error' && isStreamStallError(first.error) && first.error.stallKind).toBe('first-byte');
    expect(mock.requests).toHaveLength(3);
    const after = await collect(adapter, { ...toolTurn, fault: { kind: 'stall', afterEvents: 6 } });
    const idle = terminal(after);
    expect(idle?.type === 'error' && isStreamStallError(idle.error) && idle.error.stallKind).toBe('idle');
  });

  it('createMessage retries a body cut in half', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'truncate' });
    mock.clearRequests();
    const outcome = await adapter
      .create(mock.url, fast)
      .createMessage(request, {})
      .then(
        (response) => response.message.content,
        (error: unknown) => error,
      );
    expect(outcome, 'createMessage').toMatchObject([{ type: 'text', text: 'The port is 8000.' }]);
    expect(mock.requests).toHaveLength(2);
  });

  it('retries a reset before any content and a stall, then succeeds', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'reset', afterBytes: 0 });
    mock.injectFault({ kind: 'stall' });
    mock.clearRequests();
    const events: StreamEvent[] = [];
    for await (const event of adapter.create(mock.url, fast).streamMessage(request, {})) events.push(event);
    expectWellFormed(events);
    expect(terminal(events)?.type).toBe('message-end');
    expect(mock.requests).toHaveLength(3);
  });

  it.each([
    [{ kind: 'truncate' } as const],
    [{ kind: 'mid_stream_error', afterEvents: 6, error: 'overloaded' } as const],
    [{ kind: 'stall', afterEvents: 6 } as const],
  ])('ends with one terminal error once content has been emitted: %j', async (fault) => {
    const events = await collect(adapter, { ...toolTurn, fault });
    const last = terminal(events);
    expect(last?.type).toBe('error');
    expect(events.filter((event) => event.type === 'message-end' || event.type === 'error')).toHaveLength(1);
    if (fault.kind === 'stall') expect(errorReason(events)).toBe('stream_stall');
    if (fault.kind === 'mid_stream_error') expect(errorReason(events)).toBe('overloaded');
  });

  it('turns malformed tool arguments into an input error with input {}, streamed or not', async () => {
    const events = await collect(adapter, { ...toolTurn, fault: { kind: 'malformed_tool_arguments' } });
    const end = events.find((event) => event.type === 'tool-call-end');
    expect(end?.type === 'tool-call-end' && end.input).toEqual({});
    expect(end?.type === 'tool-call-end' && end.inputError?.kind).toBe('invalid-json');
    const created = await adapter.create(mock.url, fast).createMessage(request, {});
    const kinds = created.message.content.flatMap((block) =>
      block.type === 'tool_use' ? [block.inputError?.kind] : [],
    );
    expect(kinds).toEqual(['invalid-json']);
  });

  it.each([['duplicate_tool_ids'], ['missing_tool_ids']] as const)(
    'gives every tool call a unique id under %s',
    async (kind) => {
      const turn: MockTurn = {
        content: [
          { type: 'tool_call', name: 'read_file', input: { path: 'a' } },
          { type: 'tool_call', name: 'read_file', input: { path: 'b' } },
        ],
        fault: { kind },
      };
      const response = await assembleMessage(await collect(adapter, turn));
      const ids = response.message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
      expect(ids).toHaveLength(2);
      expect(new Set(ids).size).toBe(2);
      for (const id of ids) expect(id.length).toBeGreaterThan(0);
      // A repeated id keeps the first and suffixes the second; createMessage does the same.
      if (kind === 'duplicate_tool_ids') expect(ids[1]).toBe(`${ids[0]}_2`);
      const created = await adapter.create(mock.url, fast).createMessage(request, {});
      const createdIds = created.message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
      expect(new Set(createdIds).size).toBe(2);
      if (kind === 'duplicate_tool_ids') expect(createdIds[1]).toBe(`${createdIds[0]}_2`);
    },
  );

  it('stops promptly when the caller aborts mid-stream', async () => {
    mock.setScript({ steps: [{ ...textTurn, chunking: { textDelta: 1, delayMs: 50 } }], repeatLast: true });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    for await (const event of adapter.create(mock.url, fast).streamMessage(request, { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    expect(errorReason(events)).toBe('aborted');
  });
});
