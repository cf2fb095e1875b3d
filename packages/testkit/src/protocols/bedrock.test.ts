import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MockErrorKind } from '../script/types.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../test/fixtures.js';
import { decodeEventStream } from './aws-eventstream.js';
import { bedrockFrame, bedrockProtocol, bedrockUsage } from './bedrock.js';
import type { WireEvent } from './protocol.js';
import { at, CONTRACTS, parse, renderErrorOverride } from './protocol.test-support.js';

const contract = CONTRACTS.bedrock;
const turn = contract.turn;
const request = contract.request();
const decoder = new TextDecoder();

describe('bedrockProtocol.renderResponse', () => {
  it('renders text, reasoning, redacted reasoning and tool use blocks', () => {
    const body = bedrockProtocol.renderResponse(
      turn({
        content: [
          { type: 'thinking', thinking: 'Counting.', signature: 'sig-1' },
          { type: 'redacted_thinking', data: 'ZW5jcnlwdGVk' },
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_call', id: 'tooluse_1', name: 'bash', arguments: '{"command":"ls -l"}' },
          { type: 'tool_call', id: undefined, name: 'noop', arguments: '{}' },
        ],
        stopReason: 'tool_use',
      }),
      request,
    );
    expect(at(body, 'output', 'message', 'role')).toBe('assistant');
    expect(at(body, 'output', 'message', 'content')).toEqual([
      { reasoningContent: { reasoningText: { text: 'Counting.', signature: 'sig-1' } } },
      { reasoningContent: { redactedContent: 'ZW5jcnlwdGVk' } },
      { text: 'Let me check.' },
      { toolUse: { toolUseId: 'tooluse_1', name: 'bash', input: { command: 'ls -l' } } },
      { toolUse: { name: 'noop', input: {} } },
    ]);
    expect(at(body, 'stopReason')).toBe('tool_use');
    expect(at(body, 'metrics', 'latencyMs')).toBeGreaterThan(0);
  });

  it('sends malformed tool input as a string in place of the document', () => {
    const body = bedrockProtocol.renderResponse(
      turn({ content: [{ type: 'tool_call', id: 't', name: 'f', arguments: '{"a":' }] }),
      request,
    );
    expect(at(body, 'output', 'message', 'content', 0, 'toolUse', 'input')).toBe('{"a":');
  });

  it('reports cache reads and writes beside input tokens', () => {
    expect(bedrockUsage({ input: 152, output: 57, cacheRead: 100, cacheWrite: 30, reasoning: 5 })).toEqual({
      inputTokens: 22,
      outputTokens: 57,
      totalTokens: 209,
      cacheReadInputTokens: 100,
      cacheWriteInputTokens: 30,
    });
  });
});

describe('bedrockProtocol.renderStream', () => {
  const events = bedrockProtocol.renderStream(
    turn({
      content: [
        { type: 'thinking', thinking: 'Hmm, yes', signature: 'sig' },
        { type: 'text', text: 'Hello, world' },
        { type: 'tool_call', id: 'tooluse_9', name: 'bash', arguments: '{"command":"ls"}' },
      ],
      stopReason: 'tool_use',
      usage: { input: 6, output: 9, cacheRead: 2, cacheWrite: 1, reasoning: 0 },
    }),
    request,
  );
  const payloads = events.map((wire) => parse(wire.data));
  const deltas = (index: number): unknown[] =>
    events
      .map((wire, position) => ({ wire, payload: payloads[position] }))
      .filter(
        ({ wire, payload }) => wire.eventType === 'contentBlockDelta' && at(payload, 'contentBlockIndex') === index,
      )
      .map(({ payload }) => at(payload, 'delta'));

  it('orders the events as ConverseStream does', () => {
    expect(events.map((wire) => wire.eventType)).toEqual([
      'messageStart',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockStop',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockStop',
      'contentBlockStart',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockStop',
      'messageStop',
      'metadata',
    ]);
    expect(events.every((wire) => wire.messageType === 'event')).toBe(true);
    expect(events.filter((wire) => wire.terminal).map((wire) => wire.eventType)).toEqual(['messageStop', 'metadata']);
  });

  it('streams reasoning with its signature, text in textDelta pieces, and tool input as string pieces', () => {
    expect(deltas(0)).toEqual([
      { reasoningContent: { text: 'Hmm, ' } },
      { reasoningContent: { text: 'yes' } },
      { reasoningContent: { signature: 'sig' } },
    ]);
    expect(
      deltas(1)
        .map((delta) => at(delta, 'text'))
        .join(''),
    ).toBe('Hello, world');
    const input = deltas(2).map((delta) => at(delta, 'toolUse', 'input'));
    expect(input.every((piece) => typeof piece === 'string' && piece.length <= 4)).toBe(true);
    expect(JSON.parse(input.join(''))).toEqual({ command: 'ls' });
    expect(payloads[9]).toEqual({ contentBlockIndex: 2, start: { toolUse: { toolUseId: 'tooluse_9', name: 'bash' } } });
  });

  it('closes with the stop reason and usage', () => {
    expect(payloads.at(-2)).toEqual({ stopReason: 'tool_use' });
    expect(at(payloads.at(-1), 'usage')).toEqual({
      inputTokens: 3,
      outputTokens: 9,
      totalTokens: 15,
      cacheReadInputTokens: 2,
      cacheWriteInputTokens: 1,
    });
  });
});

describe('bedrockFrame', () => {
  it('wraps an event with the event-stream headers Bedrock sends', () => {
    const wire: WireEvent = { eventType: 'contentBlockDelta', messageType: 'event', data: '{"contentBlockIndex":0}' };
    const [message] = decodeEventStream(bedrockFrame(wire));
    expect(message?.headers).toEqual({
      ':event-type': 'contentBlockDelta',
      ':content-type': 'application/json',
      ':message-type': 'event',
    });
    expect(decoder.decode(message?.payload)).toBe('{"contentBlockIndex":0}');
  });

  it('wraps an exception with :exception-type', () => {
    const [message] = decodeEventStream(
      bedrockFrame(bedrockProtocol.renderStreamError({ error: 'rate_limit' }, request)),
    );
    expect(message?.headers).toEqual({
      ':exception-type': 'throttlingException',
      ':content-type': 'application/json',
      ':message-type': 'exception',
    });
    expect(parse(decoder.decode(message?.payload))).toEqual({
      message: 'Too many requests, please wait before trying again.',
    });
  });

  it('refuses an event without an event type', () => {
    expect(() => bedrockFrame({ data: '{}' })).toThrow('needs an eventType');
  });
});

describe('bedrockProtocol.renderError', () => {
  it('gives every kind its exception and message', () => {
    // The status per kind is checked for every protocol in protocol-contract.test.ts.
    const expected: Record<MockErrorKind, string> = {
      rate_limit: 'ThrottlingException',
      quota: 'ServiceQuotaExceededException',
      overloaded: 'ServiceUnavailableException',
      context_overflow: 'ValidationException',
      auth: 'UnrecognizedClientException',
      permission: 'AccessDeniedException',
      not_found: 'ResourceNotFoundException',
      invalid_request: 'ValidationException',
      server: 'InternalServerException',
    };
    for (const [kind, exception] of Object.entries(expected) as [MockErrorKind, string][]) {
      const response = bedrockProtocol.renderError({ error: kind }, request);
      expect(response.headers['x-amzn-ErrorType']?.split(':')[0]).toBe(exception);
      expect(String(at(parse(response.body), 'message')).length).toBeGreaterThan(10);
    }
    expect(parse(bedrockProtocol.renderError({ error: 'context_overflow' }, request).body)).toEqual({
      message: 'Input is too long for requested model.',
    });
    expect(parse(bedrockProtocol.renderError({ error: 'permission' }, request).body)).toEqual({
      message: "You don't have access to the model with the specified model ID.",
    });
  });

  it('writes token counts into the context overflow message', () => {
    const response = bedrockProtocol.renderError(
      { error: 'context_overflow', requestedTokens: 200049, limitTokens: 200000 },
      request,
    );
    expect(at(parse(response.body), 'message')).toBe(
      'The model returned the following errors: prompt is too long: 200049 tokens > 200000 maximum',
    );
  });

  it('sends an overridden message as the whole body', () => {
    // Status, message and retry-after overrides are checked for every protocol in protocol-contract.test.ts.
    expect(parse(renderErrorOverride(contract).body)).toEqual({
      message: 'Too many connections, please wait before trying again.',
    });
  });

  it('sends in-stream errors as ConverseStream exception members', () => {
    const member = (error: MockErrorKind): string | undefined =>
      bedrockProtocol.renderStreamError({ error }, request).eventType;
    expect(member('rate_limit')).toBe('throttlingException');
    expect(member('overloaded')).toBe('serviceUnavailableException');
    expect(member('context_overflow')).toBe('validationException');
    expect(member('server')).toBe('modelStreamErrorException');
    const event = bedrockProtocol.renderStreamError({ error: 'server', message: 'model exploded' }, request);
    expect([event.messageType, event.terminal, parse(event.data)]).toEqual([
      'exception',
      undefined,
      { message: 'model exploded' },
    ]);
  });
});

describe('bedrockProtocol.replayStream', () => {
  it('turns {"<eventType>": payload} lines into typed events and marks the closing ones', () => {
    const events = bedrockProtocol.replayStream([
      '{"messageStart":{"role":"assistant"}}',
      '{"throttlingException":{"message":"slow down"}}',
      '{"messageStop":{"stopReason":"end_turn"}}',
    ]);
    expect(events).toEqual([
      { eventType: 'messageStart', messageType: 'event', data: '{"role":"assistant"}' },
      { eventType: 'throttlingException', messageType: 'exception', data: '{"message":"slow down"}' },
      { eventType: 'messageStop', messageType: 'event', data: '{"stopReason":"end_turn"}', terminal: true },
    ]);
  });

  it('says which line is not an event', () => {
    expect(() => bedrockProtocol.replayStream(['{"messageStart":{}}', '{"a":1,"b":2}'])).toThrow('line 2');
  });
});

describe.skipIf(!providerStreamsDir)(`bedrockProtocol with recorded streams (${fixturesSkipReason})`, () => {
  const lines = (name: string): string[] =>
    readFileSync(fixture(`bedrock-converse/${name}`), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');

  it('replays recordings as frames that decode back to the recorded events', () => {
    for (const name of [
      'amazon-bedrock-text.chunks.txt',
      'amazon-bedrock-tool-call.1.chunks.txt',
      'amazon-bedrock-reasoning.chunks.txt',
    ]) {
      const recorded = lines(name);
      const bytes = Buffer.concat(bedrockProtocol.replayStream(recorded).map(bedrockFrame));
      const decoded = decodeEventStream(bytes).map((message) => ({
        [message.headers[':event-type'] ?? '?']: parse(decoder.decode(message.payload)),
      }));
      expect(decoded).toEqual(recorded.map(parse));
    }
  });

  it('marks messageStop and metadata terminal wherever they come', () => {
    const events = bedrockProtocol.replayStream(lines('amazon-bedrock-tool-call.1.chunks.txt'));
    expect(events.filter((wire) => wire.terminal).map((wire) => wire.eventType)).toEqual(['metadata', 'messageStop']);
  });

  it('renders responses with the recorded body shape', () => {
    const recorded = parse(readFileSync(fixture('bedrock-converse/amazon-bedrock-reasoning.json'), 'utf8'));
    const rendered = bedrockProtocol.renderResponse(
      turn({
        content: [
          { type: 'thinking', thinking: 'Let me count.', signature: 'sig' },
          { type: 'text', text: 'Three.' },
        ],
      }),
      request,
    );
    const keys = (value: unknown): string[] => Object.keys(value as object).sort();
    expect(keys(rendered)).toEqual(keys(recorded));
    expect(keys(at(rendered, 'output', 'message', 'content', 0, 'reasoningContent', 'reasoningText'))).toEqual(
      keys(at(recorded, 'output', 'message', 'content', 0, 'reasoningContent', 'reasoningText')),
    );
    expect(keys(at(recorded, 'usage'))).toEqual(expect.arrayContaining(keys(at(rendered, 'usage'))));
  });
});
