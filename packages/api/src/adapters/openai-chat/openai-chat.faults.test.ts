import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockErrorKind, MockFault, MockTurn } from '@boxagnts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLlmError, type LlmError } from '../../spec/llm-error.js';
import { isContextOverflowError, isQuotaExceededError } from '../../spec/llm-error-classes.js';
import type { ToolUseBlock } from '../../spec/message.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { startFaultTestSetup } from '../../test/fault-test-setup.js';
import { assemble, collectEvents, expectWellFormed } from './openai-chat.test.helpers.js';
import { createOpenAIChatProvider } from './openai-chat-provider.js';
import type { OpenAIChatSettings } from './openai-chat-settings.js';

// The testkit's faults where the OpenAI Chat adapter's answer is its own: status codes, error bodies
// and wordings (Moonshot, Azure, vLLM), retry-after-ms, keep-alive comments, in-stream error chunks,
// generated ids. The generic fault cases run for every adapter in conformance/cross-adapter.test.ts.

const { mock, sleeps, fast } = await startFaultTestSetup();

const request = { model: 'gpt-test', messages: [{ role: 'user' as const, content: 'Hi' }] };

const textTurn: MockTurn = {
  text: 'Hello from the mock, in several pieces.',
  chunking: { textDelta: 4 },
  usage: { input: 10, output: 9 },
};

function provider(settings: OpenAIChatSettings = {}) {
  return createOpenAIChatProvider({
    baseURL: `${mock.url}/v1`,
    apiKey: 'sk-test-key-5678',
    ...fast,
    ...settings,
  });
}

/** Streams `turn` with the faults given applied to the next requests (setScript clears injected faults). */
async function run(
  turn: MockTurn = textTurn,
  settings?: OpenAIChatSettings,
  faults: ReadonlyArray<[MockFault, number]> = [],
): Promise<StreamEvent[]> {
  mock.setScript({ steps: [turn], repeatLast: true });
  for (const [fault, times] of faults) mock.injectFault(fault, { times });
  const events = await collectEvents(provider(settings).streamMessage(request));
  expectWellFormed(events);
  return events;
}

function terminalError(events: readonly StreamEvent[]): LlmError {
  const last = events.at(-1);
  if (last?.type !== 'error') throw new Error(`expected a terminal error, got ${last?.type}`);
  return last.error;
}

function textOf(events: readonly StreamEvent[]): string {
  return events.map((event) => (event.type === 'text-delta' ? event.delta : '')).join('');
}

describe('HTTP errors', () => {
  it.each([
    ['rate_limit', 'rate_limit', 429],
    ['overloaded', 'overloaded', 503],
    ['quota', 'quota', 429],
    ['context_overflow', 'context_overflow', 400],
    ['auth', 'auth', 401],
    ['permission', 'permission', 403],
    ['not_found', 'not_found', 404],
    ['invalid_request', 'invalid_request', 400],
    ['server', 'server', 500],
  ] as const)('%s is reported as %s (HTTP %i)', async (kind: MockErrorKind, reason, status) => {
    try {
      const error = terminalError(
        await run(textTurn, { retry: { maxRetries: 0 } }, [[{ kind: 'http_error', error: kind }, 10]]),
      );
      expect(error.reason).toBe(reason);
      expect(error.status).toBe(status);
      expect(error.providerId).toBe('openai-chat');
      expect(error.message).not.toContain('sk-test-key-5678');
    } finally {
      mock.setScript({ steps: [] });
    }
  });

  it('a context overflow carries the token counts', async () => {
    const error = terminalError(
      await run(textTurn, undefined, [
        [{ kind: 'http_error', error: 'context_overflow', requestedTokens: 140_000, limitTokens: 128_000 }, 1],
      ]),
    );
    expect(isContextOverflowError(error)).toBe(true);
    expect(error).toMatchObject({ requestedTokens: 140_000, limitTokens: 128_000, isRetryable: false });
    expect(mock.requests).toHaveLength(1);
  });

  it("a context overflow in Moonshot's wording carries the token counts too", async () => {
    const overflow: MockFault = {
      kind: 'http_error',
      error: 'invalid_request',
      message: 'Invalid request: Your request exceeded model token limit: 262144 (requested: 269030)',
    };
    const error = terminalError(await run(textTurn, undefined, [[overflow, 1]]));
    expect(error).toMatchObject({ reason: 'context_overflow', requestedTokens: 269_030, limitTokens: 262_144 });
  });

  it('quota (insufficient_quota on a 429) is not retried', async () => {
    const error = terminalError(await run(textTurn, undefined, [[{ kind: 'http_error', error: 'quota' }, 5]]));
    expect(isQuotaExceededError(error)).toBe(true);
    expect(error.isRetryable).toBe(false);
    expect(mock.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    mock.setScript({ steps: [] });
  });

  it('retry-after-ms wins over retry-after', async () => {
    await run(textTurn, undefined, [
      [{ kind: 'http_error', error: 'rate_limit', retryAfterSeconds: 9, retryAfterMs: 1500 }, 1],
    ]);
    expect(sleeps).toEqual([1500]);
  });

  it('an Azure content-filter rejection is content_filter', async () => {
    const filtered: MockFault = {
      kind: 'http_error',
      error: 'invalid_request',
      message:
        "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry.",
    };
    const error = terminalError(await run(textTurn, undefined, [[filtered, 1]]));
    expect(error.reason).toBe('content_filter');
    expect(error.isRetryable).toBe(false);
  });

  it('createMessage retries an overload the same way', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'http_error', error: 'overloaded' }, { times: 1 });
    const response = await provider().createMessage(request);
    expect(response.message.content).toEqual([{ type: 'text', text: 'Hello from the mock, in several pieces.' }]);
    expect(mock.requests).toHaveLength(2);
  });

  it('a missing key fails before any request, naming the variable', async () => {
    mock.setScript({ steps: [textTurn] });
    const keyless = createOpenAIChatProvider({ baseURL: `${mock.url}/v1`, env: {}, apiKeyEnvVars: ['ACME_API_KEY'] });
    const error = terminalError(await collectEvents(keyless.streamMessage(request)));
    expect(error.reason).toBe('auth');
    expect(error.message).toContain('ACME_API_KEY');
    expect(mock.requests).toHaveLength(0);
  });
});

describe('error bodies the openai SDK would lose', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // vLLM and Mistral answer with a top-level error object, not `{error: {...}}`.
    server = createServer((_request, response) => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          object: 'error',
          message:
            "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).",
          type: 'BadRequestError',
          param: null,
          code: 400,
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("recognises vLLM's top-level error body as a context overflow with counts", async () => {
    const vllm = createOpenAIChatProvider({ baseURL: url, noApiKey: true });
    const error = terminalError(await collectEvents(vllm.streamMessage(request)));
    expect(error).toMatchObject({ reason: 'context_overflow', requestedTokens: 5000, limitTokens: 4096, status: 400 });
  });
});

describe('broken streams', () => {
  it('a truncated stream (no finish, no [DONE]) is a terminal error, not a silent success', async () => {
    const events = await run(textTurn, undefined, [[{ kind: 'truncate' }, 1]]);
    expect(textOf(events)).toBe('Hello from the mock, in several pieces.');
    expect(terminalError(events).reason).toBe('network');
  });

  it('a truncated non-streamed body rejects createMessage', async () => {
    mock.setScript({ steps: [textTurn], repeatLast: true });
    mock.injectFault({ kind: 'truncate' }, { times: 5 });
    const failure = await provider({ retry: { maxRetries: 0 } })
      .createMessage(request)
      .catch((error: unknown) => error);
    expect(isLlmError(failure) && failure.reason).toBe('network');
    mock.setScript({ steps: [] });
  });

  it('keep-alive comments with no content past keepAliveTimeoutMs: stream_stall (keep-alive-only)', async () => {
    const events = await run(textTurn, undefined, [[{ kind: 'stall', afterEvents: 2, pingIntervalMs: 20 }, 1]]);
    expect(terminalError(events)).toMatchObject({ reason: 'stream_stall', stallKind: 'keep-alive-only' });
  });

  it('a stream of only keep-alives stalls too (retries exhausted)', async () => {
    const events = await run(textTurn, { retry: { maxRetries: 0 } }, [[{ kind: 'stall', pingIntervalMs: 20 }, 5]]);
    expect(terminalError(events)).toMatchObject({ reason: 'stream_stall', stallKind: 'keep-alive-only' });
    mock.setScript({ steps: [] });
  });

  it('an in-stream error before content is retried', async () => {
    const events = await run(textTurn, undefined, [
      [{ kind: 'mid_stream_error', afterEvents: 0, error: 'overloaded' }, 1],
    ]);
    expect(events.at(-1)?.type).toBe('message-end');
    expect(mock.requests).toHaveLength(2);
    expect(textOf(events)).toBe('Hello from the mock, in several pieces.');
  });

  it.each([
    ['rate_limit', 'rate_limit'],
    ['quota', 'quota'],
    ['overloaded', 'overloaded'],
    ['context_overflow', 'context_overflow'],
    ['server', 'server'],
  ] as const)('an in-stream %s error after content is terminal with reason %s', async (kind, reason) => {
    const events = await run(textTurn, undefined, [[{ kind: 'mid_stream_error', afterEvents: 3, error: kind }, 1]]);
    expect(textOf(events).length).toBeGreaterThan(0);
    const error = terminalError(events);
    expect(error.reason).toBe(reason);
    expect(error.message).toContain('in the middle of the stream');
    expect(mock.requests).toHaveLength(1);
  });

  it('aborting createMessage rejects with aborted', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'stall' } }] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const failure = await provider()
      .createMessage(request, { signal: controller.signal })
      .catch((error: unknown) => error);
    expect(isLlmError(failure) && failure.reason).toBe('aborted');
  });
});

describe('broken tool calls', () => {
  const toolTurn: MockTurn = {
    content: [
      { type: 'tool_call', name: 'read', input: { path: 'a.txt' } },
      { type: 'tool_call', name: 'grep', input: { pattern: 'x' } },
    ],
    chunking: { argumentsDelta: 3 },
  };

  function toolUses(events: readonly StreamEvent[]): ToolUseBlock[] {
    return assemble(events).message.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
  }

  it('malformed arguments give inputError with input {}', async () => {
    const calls = toolUses(await run({ ...toolTurn, fault: { kind: 'malformed_tool_arguments' } }));
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.input).toEqual({});
      expect(call.inputError?.kind).toBe('invalid-json');
      expect(call.inputError?.rawInput.length).toBeGreaterThan(0);
    }
  });

  it('duplicate ids are made unique with _2', async () => {
    const calls = toolUses(await run({ ...toolTurn, fault: { kind: 'duplicate_tool_ids' } }));
    expect(calls.map((call) => call.name)).toEqual(['read', 'grep']);
    expect(calls[1]?.id).toBe(`${calls[0]?.id}_2`);
    expect(calls.map((call) => call.input)).toEqual([{ path: 'a.txt' }, { pattern: 'x' }]);
  });

  it('missing ids are generated, distinct and stable between start and end', async () => {
    const events = await run({ ...toolTurn, fault: { kind: 'missing_tool_ids' } });
    const calls = toolUses(events);
    expect(calls.map((call) => call.input)).toEqual([{ path: 'a.txt' }, { pattern: 'x' }]);
    expect(calls[0]?.id).toMatch(/^call_0_[0-9a-f]{8}$/);
    expect(calls[1]?.id).toMatch(/^call_1_[0-9a-f]{8}$/);
    const starts = events.filter((event) => event.type === 'tool-call-start').map((event) => event.toolCallId);
    expect(starts).toEqual(calls.map((call) => call.id));
  });
});
