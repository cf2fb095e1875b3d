import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MockErrorKind } from '../script/types.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../test/fixtures.js';
import { geminiProtocol, geminiUsage } from './gemini.js';
import { geminiRetryDelay } from './gemini-errors.js';
import type { ParsedRequest, ResolvedTurn } from './protocol.js';

function turn(overrides: Partial<ResolvedTurn> = {}): ResolvedTurn {
  return {
    content: [{ type: 'text', text: 'Hello, world' }],
    stopReason: 'end_turn',
    rawStopReason: undefined,
    usage: { input: 10, output: 20, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    model: 'gemini-2.5-flash',
    responseId: 'resp-1',
    textDelta: 5,
    argumentsDelta: 8,
    created: 1_700_000_000,
    ...overrides,
  };
}

const request: ParsedRequest = {
  protocol: 'gemini',
  method: 'POST',
  path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent',
  query: new URLSearchParams('alt=sse'),
  headers: {},
  body: {},
  rawBody: '{}',
  model: 'gemini-2.5-flash',
  stream: true,
  includeUsage: false,
};

/** Walk parsed JSON by keys and indexes; undefined where the path does not exist. */
function at(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const parse = (text: string): unknown => JSON.parse(text);
const partsOf = (payload: unknown): unknown[] => list(at(payload, 'candidates', 0, 'content', 'parts'));

describe('geminiProtocol.matchRoute', () => {
  it('recognises Gemini API and Vertex AI paths, streamed or not', () => {
    expect(geminiProtocol.matchRoute('POST', '/v1beta/models/gemini-2.5-pro:generateContent', {})).toEqual({
      model: 'gemini-2.5-pro',
      stream: false,
    });
    expect(
      geminiProtocol.matchRoute(
        'POST',
        '/v1/projects/p1/locations/us-central1/publishers/google/models/gemini-2.0-flash:streamGenerateContent',
        {},
      ),
    ).toEqual({ model: 'gemini-2.0-flash', stream: true });
    expect(geminiProtocol.matchRoute('POST', '/proxy/google/v1beta/models/my%20model:generateContent', {})).toEqual({
      model: 'my model',
      stream: false,
    });
  });

  it('ignores other methods and paths', () => {
    expect(geminiProtocol.matchRoute('GET', '/v1beta/models/gemini-2.5-pro:generateContent', {})).toBeUndefined();
    expect(geminiProtocol.matchRoute('POST', '/v1beta/models/gemini-2.5-pro:countTokens', {})).toBeUndefined();
    expect(geminiProtocol.matchRoute('POST', '/v1/messages', {})).toBeUndefined();
  });
});

describe('geminiProtocol.renderResponse', () => {
  it('renders text, thoughts and function calls as parts, without redacted thinking', () => {
    const body = geminiProtocol.renderResponse(
      turn({
        content: [
          { type: 'thinking', thinking: 'Let me think', signature: 'sig-1' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: 'Calling the tool.' },
          { type: 'tool_call', id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
          { type: 'tool_call', id: undefined, name: 'time', arguments: '{}' },
        ],
        stopReason: 'tool_use',
      }),
      request,
    ) as Json;
    expect(body.candidates[0].content.role).toBe('model');
    expect(partsOf(body)).toEqual([
      { text: 'Let me think', thought: true, thoughtSignature: 'sig-1' },
      { text: 'Calling the tool.' },
      { functionCall: { id: 'call_1', name: 'weather', args: { city: 'Paris' } } },
      { functionCall: { name: 'time', args: {} } },
    ]);
    expect(body.candidates[0].finishReason).toBe('STOP');
    expect(body.modelVersion).toBe('gemini-2.5-flash');
    expect(body.responseId).toBe('resp-1');
  });

  it('sends malformed arguments as a string in place of the args object', () => {
    const body = geminiProtocol.renderResponse(
      turn({ content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '{"city":"Par' }] }),
      request,
    ) as Json;
    expect(partsOf(body)[0]?.functionCall.args).toBe('{"city":"Par');
  });

  it('maps stop reasons and sends a raw one verbatim', () => {
    const reason = (overrides: Partial<ResolvedTurn>): string =>
      (geminiProtocol.renderResponse(turn(overrides), request) as Json).candidates[0].finishReason;
    expect(reason({ stopReason: 'max_tokens' })).toBe('MAX_TOKENS');
    expect(reason({ stopReason: 'content_filter' })).toBe('SAFETY');
    expect(reason({ stopReason: 'refusal' })).toBe('SAFETY');
    expect(reason({ stopReason: 'stop_sequence' })).toBe('STOP');
    expect(reason({ stopReason: 'pause_turn' })).toBe('OTHER');
    expect(reason({ rawStopReason: 'MALFORMED_FUNCTION_CALL' })).toBe('MALFORMED_FUNCTION_CALL');
  });

  it('reports cached and thought tokens the way Gemini counts them', () => {
    expect(geminiUsage({ input: 100, output: 50, cacheRead: 400, cacheWrite: 0, reasoning: 30 })).toEqual({
      promptTokenCount: 500,
      candidatesTokenCount: 20,
      totalTokenCount: 550,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: 500 }],
      cachedContentTokenCount: 400,
      cacheTokensDetails: [{ modality: 'TEXT', tokenCount: 400 }],
      thoughtsTokenCount: 30,
    });
    const plain = geminiUsage({ input: 9, output: 23, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    expect(plain).not.toHaveProperty('cachedContentTokenCount');
    expect(plain).not.toHaveProperty('thoughtsTokenCount');
    expect(plain.totalTokenCount).toBe(32);
  });
});

describe('geminiProtocol.renderStream', () => {
  const events = geminiProtocol.renderStream(
    turn({
      content: [
        { type: 'thinking', thinking: 'abcdefg', signature: 'sig' },
        { type: 'text', text: 'Hello, world' },
        { type: 'tool_call', id: undefined, name: 'lookup', arguments: '{"q":"x"}' },
      ],
      stopReason: 'tool_use',
      usage: { input: 3, output: 9, cacheRead: 2, cacheWrite: 0, reasoning: 4 },
    }),
    request,
  );
  const payloads = events.map((event) => parse(event.data));

  it('splits text and thoughts into textDelta pieces and sends each call whole', () => {
    const parts = payloads.flatMap(partsOf);
    expect(parts.filter((part) => part.thought).map((part) => part.text)).toEqual(['abcde', 'fg']);
    expect(parts.filter((part) => part.thought).map((part) => part.thoughtSignature)).toEqual([undefined, 'sig']);
    const text = parts
      .filter((part) => !part.thought && typeof part.text === 'string')
      .map((part) => part.text)
      .join('');
    expect(text).toBe('Hello, world');
    expect(parts.filter((part) => part.functionCall)).toEqual([{ functionCall: { name: 'lookup', args: { q: 'x' } } }]);
  });

  it('ends with one terminal chunk that alone carries finishReason', () => {
    expect(events.map((event) => event.terminal === true)).toEqual([false, false, false, false, false, false, true]);
    expect(events.every((event) => event.event === undefined)).toBe(true);
    expect(payloads.map((payload) => payload.candidates[0].finishReason)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      'STOP',
    ]);
    expect(payloads.at(-1)?.usageMetadata).toMatchObject({
      promptTokenCount: 5,
      candidatesTokenCount: 5,
      thoughtsTokenCount: 4,
      cachedContentTokenCount: 2,
      totalTokenCount: 14,
    });
  });

  it('sends only the closing chunk for an empty turn', () => {
    const only = geminiProtocol.renderStream(turn({ content: [] }), request);
    expect(only).toHaveLength(1);
    expect(only[0]?.terminal).toBe(true);
  });
});

describe('geminiProtocol.renderError', () => {
  const render = (error: MockErrorKind, extra: Record<string, unknown> = {}) => {
    const response = geminiProtocol.renderError({ error, ...extra }, request);
    return { ...response, json: parse(response.body).error as Json };
  };

  it('gives every kind its Gemini status and gRPC code', () => {
    const expected: Record<MockErrorKind, [number, string]> = {
      rate_limit: [429, 'RESOURCE_EXHAUSTED'],
      quota: [429, 'RESOURCE_EXHAUSTED'],
      overloaded: [503, 'UNAVAILABLE'],
      context_overflow: [400, 'INVALID_ARGUMENT'],
      auth: [400, 'INVALID_ARGUMENT'],
      permission: [403, 'PERMISSION_DENIED'],
      not_found: [404, 'NOT_FOUND'],
      invalid_request: [400, 'INVALID_ARGUMENT'],
      server: [500, 'INTERNAL'],
    };
    for (const [kind, [status, code]] of Object.entries(expected) as [MockErrorKind, [number, string]][]) {
      const response = render(kind);
      expect([response.status, response.json.code, response.json.status]).toEqual([status, status, code]);
      expect(response.json.message.length).toBeGreaterThan(10);
    }
    expect(render('overloaded').json.message).toBe('The model is overloaded. Please try again later.');
    expect(render('auth').json.details[0]).toMatchObject({ reason: 'API_KEY_INVALID' });
    expect(render('not_found').json.message).toContain('models/gemini-2.5-flash is not found for API version v1beta');
  });

  it('tells a rate limit from a daily quota by the QuotaFailure violation and adds RetryInfo', () => {
    const rate = render('rate_limit', { retryAfterMs: 34400, retryAfterSeconds: 35 });
    const quota = render('quota');
    const violation = (json: Json) =>
      json.details.find((detail: Json) => detail['@type'].endsWith('QuotaFailure')).violations[0];
    expect(violation(rate.json).quotaId).toBe('GenerateRequestsPerMinutePerProjectPerModel-FreeTier');
    expect(violation(quota.json).quotaId).toBe('GenerateRequestsPerDayPerProjectPerModel-FreeTier');
    expect(rate.json.details.at(-1)).toEqual({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' });
    expect(rate.json.message).toContain('Please retry in 34.4s.');
    expect(rate.headers['retry-after']).toBe('35');
    expect(quota.json.details.some((detail: Json) => detail['@type'].endsWith('RetryInfo'))).toBe(false);
    expect(quota.headers['retry-after']).toBeUndefined();
  });

  it('writes token counts into the context overflow message', () => {
    expect(render('context_overflow', { requestedTokens: 3475108, limitTokens: 1048576 }).json.message).toBe(
      'The input token count (3475108) exceeds the maximum number of tokens allowed (1048576).',
    );
  });

  it('honours a status and message override', () => {
    const response = render('overloaded', { status: 500, message: 'boom' });
    expect([response.status, response.json.code, response.json.status, response.json.message]).toEqual([
      500,
      500,
      'INTERNAL',
      'boom',
    ]);
  });

  it('formats retry delays from milliseconds or seconds', () => {
    expect(geminiRetryDelay({ error: 'rate_limit', retryAfterMs: 1500 })).toBe('1.5s');
    expect(geminiRetryDelay({ error: 'rate_limit', retryAfterSeconds: 48 })).toBe('48s');
    expect(geminiRetryDelay({ error: 'rate_limit' })).toBeUndefined();
  });

  it('sends an in-stream error as the same error object in a data line', () => {
    const event = geminiProtocol.renderStreamError({ error: 'overloaded' }, request);
    expect(event.event).toBeUndefined();
    expect(parse(event.data)).toEqual({
      error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' },
    });
  });
});

describe.skipIf(!providerStreamsDir)(`geminiProtocol with recorded streams (${fixturesSkipReason})`, () => {
  const lines = (name: string): string[] =>
    readFileSync(fixture(`google-gemini/${name}`), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');

  it('replays each line unchanged and marks the finishReason chunk terminal', () => {
    for (const name of ['google-text.chunks.txt', 'google-tool-call.chunks.txt', 'google-reasoning.chunks.txt']) {
      const recorded = lines(name);
      const events = geminiProtocol.replayStream(recorded);
      expect(events.map((event) => event.data)).toEqual(recorded);
      expect(events.map((event) => event.terminal === true)).toEqual(recorded.map((_, i) => i === recorded.length - 1));
    }
    const text = geminiProtocol
      .replayStream(lines('google-text.chunks.txt'))
      .flatMap((event) => partsOf(parse(event.data)))
      .map((part) => part.text ?? '')
      .join('');
    expect(text).toBe('There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y');
  });

  it('renders responses with the same shape as a recorded one', () => {
    const recorded = parse(readFileSync(fixture('google-gemini/google-tool-call.json'), 'utf8'));
    const rendered = geminiProtocol.renderResponse(
      turn({ content: [{ type: 'tool_call', id: undefined, name: 'weather', arguments: '{"location":"San Francisco"}' }] }),
      request,
    ) as Json;
    expect(Object.keys(rendered).sort()).toEqual(Object.keys(recorded).sort());
    expect(partsOf(rendered)[0]?.functionCall).toEqual(partsOf(recorded)[0]?.functionCall);
    expect(Object.keys(rendered.usageMetadata)).toEqual(expect.arrayContaining(Object.keys(recorded.usageMetadata)));
  });

  it('renders a rate-limit body with the recorded 429 body shape', () => {
    const recorded = parse(readFileSync(fixture('google-gemini/google-429-retry-info.json'), 'utf8')).error as Json;
    const rendered = parse(geminiProtocol.renderError({ error: 'quota', retryAfterMs: 34400 }, request).body).error as Json;
    expect([rendered.code, rendered.status]).toEqual([recorded.code, recorded.status]);
    const types = (json: Json): string[] => json.details.map((detail: Json) => detail['@type']);
    expect(types(rendered)).toEqual(expect.arrayContaining(types(recorded)));
    expect(rendered.details.at(-1).retryDelay).toBe(recorded.details.at(-1).retryDelay);
  });
});
