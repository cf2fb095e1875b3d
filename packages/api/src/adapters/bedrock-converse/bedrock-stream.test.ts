import { describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { expectWellFormed } from './bedrock.test.helpers.js';
import type { EventStreamMessage } from './bedrock-event-stream.js';
import { mapBedrockStream } from './bedrock-stream.js';

const encoder = new TextEncoder();

function event(eventType: string, payload: unknown): EventStreamMessage {
  return {
    headers: { ':event-type': eventType, ':message-type': 'event', ':content-type': 'application/json' },
    payload: encoder.encode(JSON.stringify(payload)),
  };
}

function exception(exceptionType: string, payload: unknown): EventStreamMessage {
  return {
    headers: { ':exception-type': exceptionType, ':message-type': 'exception' },
    payload: encoder.encode(JSON.stringify(payload)),
  };
}

async function map(...messages: EventStreamMessage[]): Promise<StreamEvent[]> {
  async function* source() {
    yield* messages;
  }
  const events: StreamEvent[] = [];
  for await (const item of mapBedrockStream(source(), { providerId: 'bedrock', model: 'm', requestId: 'req-1' })) {
    events.push(item);
  }
  return events;
}

const stop = (stopReason: string) => event('messageStop', { stopReason });
const metadata = event('metadata', { usage: { inputTokens: 3, outputTokens: 4 }, metrics: { latencyMs: 5 } });

describe('mapBedrockStream', () => {
  it('ends a tool call that got no input delta with input {}', async () => {
    const events = await map(
      event('messageStart', { role: 'assistant' }),
      event('contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId: 't1', name: 'now' } } }),
      event('contentBlockStop', { contentBlockIndex: 0 }),
      stop('tool_use'),
      metadata,
    );
    expectWellFormed(events);
    expect(events.find((item) => item.type === 'tool-call-end')).toEqual({
      type: 'tool-call-end',
      blockId: '0',
      toolCallId: 't1',
      toolName: 'now',
      input: {},
    });
    expect(events[0]).toEqual({ type: 'message-start', id: 'req-1', model: 'm' });
  });

  it('emits a redacted reasoning block whole at its stop', async () => {
    const events = await map(
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { redactedContent: 'AAAA' } } }),
      event('contentBlockStop', { contentBlockIndex: 0 }),
      event('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'ok' } }),
      event('contentBlockStop', { contentBlockIndex: 1 }),
      stop('end_turn'),
      metadata,
    );
    expectWellFormed(events);
    const response = await assembleMessage(events);
    expect(response.message.content).toEqual([
      { type: 'redacted_thinking', data: 'AAAA' },
      { type: 'text', text: 'ok' },
    ]);
    expect(response.message.providerMetadata).toEqual({ bedrock: { metrics: { latencyMs: 5 } } });
  });

  it('opens a tool call whose start never came, with a generated id, and closes open blocks at messageStop', async () => {
    const events = await map(
      event('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '{"a":' } } }),
      event('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '1}' } } }),
      stop('tool_use'),
      metadata,
    );
    expectWellFormed(events);
    const response = await assembleMessage(events);
    expect(response.message.content).toEqual([{ type: 'tool_use', id: 'call_2', name: '', input: { a: 1 } }]);
  });

  it('gives a block of another kind at a reused index its own block id', async () => {
    const events = await map(
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'think' } } }),
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'say' } }),
      event('contentBlockStop', { contentBlockIndex: 0 }),
      stop('end_turn'),
      metadata,
    );
    expectWellFormed(events);
    expect(events.filter((item) => item.type.endsWith('-start') && item.type !== 'message-start')).toEqual([
      { type: 'thinking-start', blockId: '0' },
      { type: 'text-start', blockId: '0.2' },
    ]);
  });

  it('ends with message-end when the body ends after messageStop without metadata, with zero usage', async () => {
    const events = await map(
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'x' } }),
      stop('max_tokens'),
    );
    expect(events.at(-1)).toMatchObject({
      type: 'message-end',
      finishReason: { unified: 'length', raw: 'max_tokens' },
      usage: { input: { total: 0 }, output: { total: 0 } },
    });
  });

  it('yields no message-end when messageStop never came (the retry layer reports the cut)', async () => {
    const events = await map(event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'x' } }), metadata);
    expect(events.map((item) => item.type)).toEqual(['message-start', 'text-start', 'text-delta', 'usage']);
  });

  it('turns an exception frame into one error event and stops', async () => {
    const events = await map(
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'x' } }),
      exception('throttlingException', { message: 'Too many requests, please wait before trying again.' }),
      stop('end_turn'),
    );
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { reason: 'rate_limit', providerId: 'bedrock' } });
    expect(events.filter((item) => item.type === 'error')).toHaveLength(1);
  });

  it('ignores unknown events and throws a server error for a payload that is not JSON', async () => {
    const events = await map(event('somethingNew', { x: 1 }), stop('end_turn'));
    expect(events.map((item) => item.type)).toEqual(['message-start', 'message-end']);
    const broken: EventStreamMessage = {
      headers: { ':event-type': 'contentBlockDelta' },
      payload: encoder.encode('{nope'),
    };
    await expect(map(broken)).rejects.toMatchObject({ reason: 'server', isRetryable: true });
    await expect(map(event('contentBlockStop', {}))).rejects.toMatchObject({ reason: 'server' });
  });
});
