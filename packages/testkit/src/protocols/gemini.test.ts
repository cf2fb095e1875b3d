import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MockErrorKind } from '../script/types.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../test/fixtures.js';
import { geminiProtocol, geminiUsage } from './gemini.js';
import { geminiRetryDelay } from './gemini-errors.js';
import { at, CONTRACTS, parse, renderErrorOverride } from './protocol.test-support.js';

const contract = CONTRACTS.gemini;
const turn = contract.turn;
const request = contract.request();

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const partsOf = (payload: unknown): unknown[] => list(at(payload, 'candidates', 0, 'content', 'parts'));

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
    );
    expect(at(body, 'candidates', 0, 'content', 'role')).toBe('model');
    expect(partsOf(body)).toEqual([
      { text: 'Let me think', thought: true, thoughtSignature: 'sig-1' },
      { text: 'Calling the tool.' },
      { functionCall: { id: 'call_1', name: 'weather', args: { city: 'Paris' } } },
      { functionCall: { name: 'time', args: {} } },
    ]);
    expect(at(body, 'candidates', 0, 'finishReason')).toBe('STOP');
    expect(at(body, 'modelVersion')).toBe('gemini-2.5-flash');
    expect(at(body, 'responseId')).toBe('resp-1');
  });

  it('sends malformed arguments as a string in place of the args object', () => {
    const body = geminiProtocol.renderResponse(
      turn({ content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '{"city":"Par' }] }),
      request,
    );
    expect(at(partsOf(body)[0], 'functionCall', 'args')).toBe('{"city":"Par');
  });

  it('reports cached and thought tokens the way Gemini counts them', () => {
    expect(geminiUsage({ input: 500, output: 50, cacheRead: 400, cacheWrite: 0, reasoning: 30 })).toEqual({
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
      usage: { input: 5, output: 9, cacheRead: 2, cacheWrite: 0, reasoning: 4 },
    }),
    request,
  );
  const payloads = events.map((event) => parse(event.data));
  const parts = payloads.flatMap(partsOf);

  it('splits text and thoughts into textDelta pieces and sends each call whole', () => {
    const thoughts = parts.filter((part) => at(part, 'thought') === true);
    expect(thoughts.map((part) => at(part, 'text'))).toEqual(['abcde', 'fg']);
    expect(thoughts.map((part) => at(part, 'thoughtSignature'))).toEqual([undefined, 'sig']);
    const text = parts
      .filter((part) => at(part, 'thought') === undefined)
      .map((part) => at(part, 'text') ?? '')
      .join('');
    expect(text).toBe('Hello, world');
    expect(parts.filter((part) => at(part, 'functionCall') !== undefined)).toEqual([
      { functionCall: { name: 'lookup', args: { q: 'x' } } },
    ]);
  });

  it('ends with one terminal chunk that alone carries finishReason', () => {
    expect(events.map((event) => event.terminal === true)).toEqual([false, false, false, false, false, false, true]);
    expect(events.every((event) => event.event === undefined)).toBe(true);
    expect(payloads.map((payload) => at(payload, 'candidates', 0, 'finishReason'))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      'STOP',
    ]);
    expect(at(payloads.at(-1), 'usageMetadata')).toMatchObject({
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
    return { ...response, json: at(parse(response.body), 'error') };
  };
  const details = (json: unknown): unknown[] => list(at(json, 'details'));
  const typeOf = (detail: unknown): string => String(at(detail, '@type'));

  it('gives every kind its gRPC code and echoes the HTTP status in the body', () => {
    // The HTTP status per kind is checked for every protocol in protocol-contract.test.ts.
    const expected: Record<MockErrorKind, string> = {
      rate_limit: 'RESOURCE_EXHAUSTED',
      quota: 'RESOURCE_EXHAUSTED',
      overloaded: 'UNAVAILABLE',
      context_overflow: 'INVALID_ARGUMENT',
      auth: 'INVALID_ARGUMENT',
      permission: 'PERMISSION_DENIED',
      not_found: 'NOT_FOUND',
      invalid_request: 'INVALID_ARGUMENT',
      server: 'INTERNAL',
    };
    for (const [kind, code] of Object.entries(expected) as [MockErrorKind, string][]) {
      const response = render(kind);
      expect([at(response.json, 'code'), at(response.json, 'status')]).toEqual([response.status, code]);
      expect(String(at(response.json, 'message')).length).toBeGreaterThan(10);
    }
    expect(at(render('overloaded').json, 'message')).toBe('The model is overloaded. Please try again later.');
    expect(details(render('auth').json)[0]).toMatchObject({ reason: 'API_KEY_INVALID' });
    expect(at(render('not_found').json, 'message')).toContain(
      'models/gemini-2.5-flash is not found for API version v1beta',
    );
  });

  it('tells a rate limit from a daily quota by the QuotaFailure violation and adds RetryInfo', () => {
    const rate = render('rate_limit', { retryAfterMs: 34400, retryAfterSeconds: 35 });
    const quota = render('quota');
    const quotaId = (json: unknown): unknown =>
      at(
        details(json).find((detail) => typeOf(detail).endsWith('QuotaFailure')),
        'violations',
        0,
        'quotaId',
      );
    expect(quotaId(rate.json)).toBe('GenerateRequestsPerMinutePerProjectPerModel-FreeTier');
    expect(quotaId(quota.json)).toBe('GenerateRequestsPerDayPerProjectPerModel-FreeTier');
    expect(details(rate.json).at(-1)).toEqual({
      '@type': 'type.googleapis.com/google.rpc.RetryInfo',
      retryDelay: '34.4s',
    });
    expect(at(rate.json, 'message')).toContain('Please retry in 34.4s.');
    expect(rate.headers['retry-after']).toBe('35');
    expect(details(quota.json).some((detail) => typeOf(detail).endsWith('RetryInfo'))).toBe(false);
    expect(quota.headers['retry-after']).toBeUndefined();
  });

  it('writes token counts into the context overflow message', () => {
    expect(at(render('context_overflow', { requestedTokens: 3475108, limitTokens: 1048576 }).json, 'message')).toBe(
      'The input token count (3475108) exceeds the maximum number of tokens allowed (1048576).',
    );
  });

  it('gives an overridden status its gRPC code in the body', () => {
    // Status and message overrides are checked for every protocol in protocol-contract.test.ts.
    expect(at(parse(renderErrorOverride(contract).body), 'error')).toEqual({
      code: 500,
      message: 'boom',
      status: 'INTERNAL',
    });
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
      expect(events.map((event) => event.terminal === true)).toEqual(
        recorded.map((_, index) => index === recorded.length - 1),
      );
    }
    const text = geminiProtocol
      .replayStream(lines('google-text.chunks.txt'))
      .flatMap((event) => partsOf(parse(event.data)))
      .map((part) => at(part, 'text') ?? '')
      .join('');
    expect(text).toBe('There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y');
  });

  it('renders responses with the same shape as a recorded one', () => {
    const recorded = parse(readFileSync(fixture('google-gemini/google-tool-call.json'), 'utf8'));
    const rendered = geminiProtocol.renderResponse(
      turn({
        content: [{ type: 'tool_call', id: undefined, name: 'weather', arguments: '{"location":"San Francisco"}' }],
        usage: { input: 29, output: 908, cacheRead: 0, cacheWrite: 0, reasoning: 893 },
      }),
      request,
    );
    const keys = (value: unknown): string[] => Object.keys(value as object).sort();
    expect(keys(rendered)).toEqual(keys(recorded));
    expect(at(partsOf(rendered)[0], 'functionCall')).toEqual(at(partsOf(recorded)[0], 'functionCall'));
    expect(keys(at(rendered, 'usageMetadata'))).toEqual(expect.arrayContaining(keys(at(recorded, 'usageMetadata'))));
    expect(at(rendered, 'usageMetadata', 'totalTokenCount')).toBe(at(recorded, 'usageMetadata', 'totalTokenCount'));
  });

  it('renders a quota body with the recorded 429 body shape', () => {
    const recorded = at(parse(readFileSync(fixture('google-gemini/google-429-retry-info.json'), 'utf8')), 'error');
    const rendered = at(
      parse(geminiProtocol.renderError({ error: 'quota', retryAfterMs: 34400 }, request).body),
      'error',
    );
    expect([at(rendered, 'code'), at(rendered, 'status')]).toEqual([at(recorded, 'code'), at(recorded, 'status')]);
    const types = (json: unknown): string[] => list(at(json, 'details')).map((detail) => String(at(detail, '@type')));
    expect(types(rendered)).toEqual(expect.arrayContaining(types(recorded)));
    expect(at(list(at(rendered, 'details')).at(-1), 'retryDelay')).toBe(
      at(list(at(recorded, 'details')).at(-1), 'retryDelay'),
    );
  });
});
