import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MockErrorKind } from '../script/types.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../test/fixtures.js';
import { cohereProtocol, cohereUsage } from './cohere.js';
import { at, CONTRACTS, parse, renderErrorOverride } from './protocol.test-support.js';

const contract = CONTRACTS.cohere;
const turn = contract.turn;
const request = contract.request();

describe('cohereProtocol.renderResponse', () => {
  it('renders text and thinking as content', () => {
    const body = cohereProtocol.renderResponse(
      turn({
        content: [
          { type: 'thinking', thinking: 'Easy one.', signature: 'dropped' },
          { type: 'redacted_thinking', data: 'dropped' },
          { type: 'text', text: 'Four.' },
        ],
      }),
      request,
    );
    expect(body).toEqual({
      id: 'cohere-1',
      message: {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Easy one.' },
          { type: 'text', text: 'Four.' },
        ],
      },
      finish_reason: 'COMPLETE',
      usage: {
        billed_units: { input_tokens: 12, output_tokens: 7 },
        tokens: { input_tokens: 12, output_tokens: 7 },
        cached_tokens: 0,
      },
    });
  });

  it('puts text beside tool calls into tool_plan and keeps arguments as text', () => {
    const body = cohereProtocol.renderResponse(
      turn({
        content: [
          { type: 'text', text: 'I will use the weather tool.' },
          { type: 'tool_call', id: 'weather_1', name: 'weather', arguments: '{"location":"San Francisco"}' },
          { type: 'tool_call', id: undefined, name: 'broken', arguments: '{"a":' },
        ],
        stopReason: 'tool_use',
      }),
      request,
    );
    expect(at(body, 'message')).toEqual({
      role: 'assistant',
      tool_plan: 'I will use the weather tool.',
      tool_calls: [
        { id: 'weather_1', type: 'function', function: { name: 'weather', arguments: '{"location":"San Francisco"}' } },
        { type: 'function', function: { name: 'broken', arguments: '{"a":' } },
      ],
    });
    expect(at(body, 'finish_reason')).toBe('TOOL_CALL');
  });

  it('counts cached tokens in tokens but not in billed units', () => {
    expect(cohereUsage({ input: 507, output: 10, cacheRead: 448, cacheWrite: 0, reasoning: 0 })).toEqual({
      billed_units: { input_tokens: 59, output_tokens: 10 },
      tokens: { input_tokens: 507, output_tokens: 10 },
      cached_tokens: 448,
    });
  });
});

describe('cohereProtocol.renderStream', () => {
  const events = cohereProtocol.renderStream(
    turn({
      content: [
        { type: 'text', text: 'I will look it up.' },
        { type: 'tool_call', id: 'weather_1', name: 'weather', arguments: '{"city":"Paris"}' },
        { type: 'tool_call', id: undefined, name: 'time', arguments: '{}' },
      ],
      stopReason: 'tool_use',
    }),
    request,
  );
  const payloads = events.map((event) => parse(event.data));

  it('names every SSE event after its payload type', () => {
    expect(events.map((event) => event.event)).toEqual(payloads.map((payload) => at(payload, 'type')));
    expect(events.map((event) => event.event)).toEqual([
      'message-start',
      'tool-plan-delta',
      'tool-plan-delta',
      'tool-plan-delta',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-delta',
      'tool-call-delta',
      'tool-call-delta',
      'tool-call-end',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-end',
      'message-end',
    ]);
    expect(events.map((event) => event.terminal === true).lastIndexOf(true)).toBe(events.length - 1);
    expect(events.filter((event) => event.terminal)).toHaveLength(1);
  });

  it('streams the tool plan and the arguments as text pieces', () => {
    const plan = payloads
      .filter((payload) => at(payload, 'type') === 'tool-plan-delta')
      .map((payload) => at(payload, 'delta', 'message', 'tool_plan'))
      .join('');
    expect(plan).toBe('I will look it up.');
    const args = (index: number): string =>
      payloads
        .filter((payload) => at(payload, 'type') === 'tool-call-delta' && at(payload, 'index') === index)
        .map((payload) => at(payload, 'delta', 'message', 'tool_calls', 'function', 'arguments'))
        .join('');
    expect(JSON.parse(args(0))).toEqual({ city: 'Paris' });
    expect(args(1)).toBe('{}');
    expect(at(payloads[4], 'delta', 'message', 'tool_calls')).toEqual({
      id: 'weather_1',
      type: 'function',
      function: { name: 'weather', arguments: '' },
    });
    expect(at(payloads[10], 'delta', 'message', 'tool_calls')).toEqual({
      type: 'function',
      function: { name: 'time', arguments: '' },
    });
  });

  it('ends with finish reason and usage, and starts with the response id', () => {
    expect(at(payloads[0], 'id')).toBe('cohere-1');
    expect(payloads.at(-1)).toEqual({
      type: 'message-end',
      delta: {
        finish_reason: 'TOOL_CALL',
        usage: {
          billed_units: { input_tokens: 12, output_tokens: 7 },
          tokens: { input_tokens: 12, output_tokens: 7 },
          cached_tokens: 0,
        },
      },
    });
  });

  it('indexes thinking and text content blocks in order', () => {
    const stream = cohereProtocol.renderStream(
      turn({
        content: [
          { type: 'thinking', thinking: 'The user asks.', signature: undefined },
          { type: 'text', text: 'The answer is 4.' },
        ],
      }),
      request,
    );
    const starts = stream
      .filter((event) => event.event === 'content-start')
      .map((event) => [at(parse(event.data), 'index'), at(parse(event.data), 'delta', 'message', 'content', 'type')]);
    expect(starts).toEqual([
      [0, 'thinking'],
      [1, 'text'],
    ]);
    const text = (index: number, kind: string): string =>
      stream
        .map((event) => parse(event.data))
        .filter((payload) => at(payload, 'type') === 'content-delta' && at(payload, 'index') === index)
        .map((payload) => at(payload, 'delta', 'message', 'content', kind))
        .join('');
    expect(text(0, 'thinking')).toBe('The user asks.');
    expect(text(1, 'text')).toBe('The answer is 4.');
  });
});

describe('cohereProtocol.renderError', () => {
  it('gives every kind a body holding only a message', () => {
    // The status per kind is checked for every protocol in protocol-contract.test.ts.
    for (const kind of Object.keys(contract.errorStatuses) as MockErrorKind[]) {
      const response = cohereProtocol.renderError({ error: kind }, request);
      expect(Object.keys(parse(response.body) as object)).toEqual(['message']);
    }
    expect(parse(cohereProtocol.renderError({ error: 'auth' }, request).body)).toEqual({
      message: 'invalid api token',
    });
    expect(at(parse(cohereProtocol.renderError({ error: 'not_found' }, request).body), 'message')).toBe(
      "model 'command-a-03-2025' not found, make sure the correct model ID was used and that you have access to the model.",
    );
  });

  it('writes token counts into the too-many-tokens message', () => {
    const response = cohereProtocol.renderError(
      { error: 'context_overflow', requestedTokens: 4292, limitTokens: 4081 },
      request,
    );
    expect(at(parse(response.body), 'message')).toMatch(
      /^too many tokens: total number of tokens in the prompt cannot exceed 4081 - received 4292\./,
    );
  });

  it('sends an overridden message as the whole body', () => {
    // Status, message and retry-after overrides are checked for every protocol in protocol-contract.test.ts.
    expect(parse(renderErrorOverride(contract).body)).toEqual({ message: 'slow down' });
  });

  it('sends an in-stream error as a message-end with finish_reason ERROR', () => {
    const event = cohereProtocol.renderStreamError({ error: 'server', message: 'generation failed' }, request);
    expect(event.event).toBe('message-end');
    expect(parse(event.data)).toEqual({
      type: 'message-end',
      delta: { error: 'generation failed', finish_reason: 'ERROR' },
    });
  });
});

describe.skipIf(!providerStreamsDir)(`cohereProtocol with recorded streams (${fixturesSkipReason})`, () => {
  const read = (name: string): string => readFileSync(fixture(`cohere-v2/${name}`), 'utf8');
  const lines = (name: string): string[] =>
    read(name)
      .split('\n')
      .filter((line) => line.trim() !== '');

  it('replays each line with its type as the event name and message-end as the terminal event', () => {
    for (const name of ['cohere-text.chunks.txt', 'cohere-tool-call.chunks.txt', 'cohere-reasoning.chunks.txt']) {
      const recorded = lines(name);
      const events = cohereProtocol.replayStream(recorded);
      expect(events.map((event) => event.data)).toEqual(recorded);
      expect(events.map((event) => event.event)).toEqual(recorded.map((line) => at(parse(line), 'type')));
      expect(events.map((event) => event.terminal === true)).toEqual(
        recorded.map((_, index) => index === recorded.length - 1),
      );
    }
  });

  it('renders streams with the recorded event shapes', () => {
    const recorded = lines('cohere-tool-call.chunks.txt').map(parse);
    const rendered = cohereProtocol
      .renderStream(
        turn({
          content: [
            { type: 'text', text: 'I will use the weather tool.' },
            { type: 'tool_call', id: 'weather_1', name: 'weather', arguments: '{"location":"San Francisco"}' },
          ],
          stopReason: 'tool_use',
        }),
        request,
      )
      .map((event) => parse(event.data));
    const shapeOf = (type: string, events: unknown[]): string[] => {
      const keys = (value: unknown, prefix: string): string[] =>
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? Object.entries(value).flatMap(([key, inner]) => [`${prefix}${key}`, ...keys(inner, `${prefix}${key}.`)])
          : [];
      return keys(
        events.find((event) => at(event, 'type') === type),
        '',
      ).sort();
    };
    for (const type of ['message-start', 'tool-plan-delta', 'tool-call-start', 'tool-call-delta', 'tool-call-end']) {
      expect(shapeOf(type, rendered)).toEqual(shapeOf(type, recorded));
    }
    expect(shapeOf('message-end', recorded)).toEqual(expect.arrayContaining(shapeOf('message-end', rendered)));
  });

  it('renders whole responses with the recorded body shape', () => {
    const recorded = parse(read('cohere-tool-call.json'));
    const rendered = cohereProtocol.renderResponse(
      turn({
        content: [
          { type: 'text', text: 'I will use the weather tool.' },
          { type: 'tool_call', id: 'weather_1', name: 'weather', arguments: '{"location":"San Francisco"}' },
        ],
        stopReason: 'tool_use',
      }),
      request,
    );
    const keys = (value: unknown): string[] => Object.keys(value as object).sort();
    expect(keys(rendered)).toEqual(keys(recorded));
    expect(keys(at(rendered, 'message'))).toEqual(keys(at(recorded, 'message')));
    expect(keys(at(rendered, 'usage'))).toEqual(keys(at(recorded, 'usage')));
  });
});
