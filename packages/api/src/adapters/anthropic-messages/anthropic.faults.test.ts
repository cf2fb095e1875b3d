import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockTurn } from '@boxagnts/testkit';
import { describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import { isLlmError } from '../../spec/llm-error.js';
import { isContextOverflowError, isMissingApiKeyError, isRedirectError } from '../../spec/llm-error-classes.js';
import { lastError, startFaultTestSetup } from '../../test/fault-test-setup.js';
import { collect, expectWellFormed, helloRequest } from './anthropic.test.helpers.js';
import { type AnthropicMessagesSettings, createAnthropicMessagesProvider } from './anthropic-provider.js';

// The testkit's faults where this adapter's answer is its own: Anthropic's status codes and error
// wording, ping keep-alives, in-stream error events, generated ids, keys. The generic fault cases run
// for every adapter in conformance/cross-adapter.test.ts. Retries sleep through an injected function.

const { mock, sleeps, fast } = await startFaultTestSetup();

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
    ...fast,
    ...settings,
  });
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

  it.each([
    ['overloaded', 529],
    ['server', 500],
  ] as const)('%s (HTTP %i) is retried to the limit', async (kind, status) => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'http_error', error: kind } }], repeatLast: true });
    const error = lastError(await collect(provider()));
    expect([error?.reason, error?.status]).toEqual([kind, status]);
    expect(mock.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });
});

describe('broken streams', () => {
  it('a truncated stream (no message_delta / message_stop) is an error, not a success', async () => {
    mock.setScript({ steps: [{ ...textTurn, fault: { kind: 'truncate' } }], repeatLast: true });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(lastError(events)?.reason).toBe('network');
    expect(mock.requests).toHaveLength(1);
  });

  it.each([
    [
      'with only pings (past keepAliveTimeoutMs, retried)',
      { kind: 'stall' as const, pingIntervalMs: 20 },
      3,
      'keep-alive-only',
    ],
    ['after content', { kind: 'stall' as const, afterEvents: 5 }, 1, 'idle'],
    [
      'after content, then only pings (past keepAliveTimeoutMs)',
      { kind: 'stall' as const, afterEvents: 5, pingIntervalMs: 20 },
      1,
      'keep-alive-only',
    ],
  ])('a stall %s ends as stream_stall', async (_when, fault, requests, stallKind) => {
    mock.setScript({ steps: [{ ...textTurn, fault }], repeatLast: true });
    const events = await collect(provider());
    expectWellFormed(events);
    expect(lastError(events)).toMatchObject({ reason: 'stream_stall', stallKind });
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
  it('malformed argument JSON gives input {} through createMessage too, for every call', async () => {
    const turn: MockTurn = { ...toolTurn, fault: { kind: 'malformed_tool_arguments' } };
    mock.setScript({ steps: [turn] });
    const created = await provider().createMessage(helloRequest);
    expect(created.message.content).toHaveLength(2);
    for (const block of created.message.content) {
      expect(block.type === 'tool_use' && [block.input, block.inputError?.kind]).toEqual([{}, 'invalid-json']);
    }
  });

  it('missing ids become call_<index>', async () => {
    mock.setScript({ steps: [{ ...toolTurn, fault: { kind: 'missing_tool_ids' } }] });
    const response = await assembleMessage(await collect(provider()));
    const ids = response.message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    expect(ids).toEqual(['call_0', 'call_1']);
  });
});

describe('calls that never reach a model', () => {
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
