import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import { isRateLimitError } from '../../spec/llm-error-classes.js';
import type { LlmRequest } from '../../spec/request.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../../test/fixtures.js';
import { collectEvents, expectWellFormed } from '../../test/stream-contract.js';
import { createGeminiProvider, type GeminiSettings } from './gemini-provider.js';

const request: LlmRequest = { model: 'gemini-3-pro-preview', messages: [{ role: 'user', content: 'How many rs?' }] };
const sleeps: number[] = [];
const fast = {
  apiKey: 'gemini-test-key-0123456789',
  retry: { maxRetries: 2, sleep: async (ms: number) => void sleeps.push(ms) },
  stall: { firstByteTimeoutMs: 2_000, idleTimeoutMs: 2_000 },
} satisfies GeminiSettings;

let mock: MockServer;
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

function provider(settings: GeminiSettings = {}) {
  return createGeminiProvider({ baseURL: `${mock.url}/v1beta`, ...fast, ...settings });
}

/** The signature on the last line of a recorded stream that carries one (read, not retyped). */
function signatureIn(path: string, index: number): string {
  const signatures = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => (JSON.parse(line).candidates?.[0]?.content?.parts ?? []) as Array<{ thoughtSignature?: string }>)
    .flatMap((part) => (part.thoughtSignature === undefined ? [] : [part.thoughtSignature]));
  return signatures[index] ?? '';
}

async function replayStream(name: string) {
  mock.setScript({ steps: [{ replay: fixture(`google-gemini/${name}`) }] });
  const events = await collectEvents(provider().streamMessage(request));
  expectWellFormed(events);
  return { events, response: await assembleMessage(events) };
}

async function replayBody(name: string) {
  mock.setScript({ steps: [{ replay: fixture(`google-gemini/${name}`) }] });
  return provider().createMessage(request);
}

describe.skipIf(!providerStreamsDir)(
  `recorded Gemini responses ${providerStreamsDir ? '' : fixturesSkipReason}`,
  () => {
    it('google-text.chunks.txt: one text block, the trailing signature on it, thoughts counted as output', async () => {
      const { events, response } = await replayStream('google-text.chunks.txt');
      expect(events[0]).toEqual({
        type: 'message-start',
        id: 'bH6LaZW8Fp_3nsEPqtaSwQ4',
        model: 'gemini-3-pro-preview',
      });
      const signature = signatureIn(fixture('google-gemini/google-text.chunks.txt'), 0);
      expect(signature.startsWith('EqsFCqgFAb4+9vvtAF5n87lB4OGD')).toBe(true);
      expect(response.message.content).toEqual([
        {
          type: 'text',
          text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y',
          providerMetadata: { gemini: { thoughtSignature: signature } },
        },
      ]);
      expect(response.usage).toEqual({
        input: { total: 9, noCache: 9, cacheRead: 0, cacheWrite: 0 },
        output: { total: 208, text: 23, reasoning: 185 },
      });
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'STOP' });
    });

    it('google-text.json: the signature on the text part itself', async () => {
      const response = await replayBody('google-text.json');
      expect(response.id).toBe('Un6LacrVMcjUxs0PmJfWoQc');
      expect(response.message.content).toEqual([
        {
          type: 'text',
          text: "There are **3** r's in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.",
          providerMetadata: {
            gemini: {
              thoughtSignature:
                'EtoFCtcFAb4+9vtfe4MXRxQjw48U1WKrR/7lYsgFkVi/bepqsSPjY0VU7HEzkeCBIfy1fu5t9aUZ4IZ65aWagqbBrV45fc97olcg',
            },
          },
        },
      ]);
      expect(response.usage.output).toEqual({ total: 272, text: 28, reasoning: 244 });
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'STOP' });
    });

    it.each([
      [
        'google-reasoning.chunks.txt',
        'There are **3** "r"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.',
        29,
        256,
      ],
      ['google-reasoning-gemini3.chunks.txt', 'There are **3** "r"s in strawberry.\n\nSt**r**awbe**rr**y', 23, 302],
    ])('%s: text with its signature, hidden thoughts counted', async (name, text, candidates, thoughts) => {
      const { response } = await replayStream(name);
      const signature = signatureIn(fixture(`google-gemini/${name}`), 0);
      expect(signature.length).toBeGreaterThan(100);
      expect(response.message.content).toEqual([
        { type: 'text', text, providerMetadata: { gemini: { thoughtSignature: signature } } },
      ]);
      expect(response.usage.output).toEqual({ total: candidates + thoughts, text: candidates, reasoning: thoughts });
      expect(response.usage.input.total).toBe(9);
    });

    it.each([
      ['google-tool-call.chunks.txt', 45],
      ['google-tool-call-gemini3.chunks.txt', 804],
    ])('%s: one function call with its signature, ends as tool-calls', async (name, thoughts) => {
      const { events, response } = await replayStream(name);
      const signature = signatureIn(fixture(`google-gemini/${name}`), 0);
      expect(response.message.content).toEqual([
        {
          type: 'tool_use',
          id: expect.stringMatching(/^call_[a-z0-9]+_0$/),
          name: 'weather',
          input: { location: 'San Francisco' },
          providerMetadata: { gemini: { thoughtSignature: signature } },
        },
      ]);
      expect(events.filter((event) => event.type === 'tool-call-input-delta')).toEqual([
        { type: 'tool-call-input-delta', blockId: '0', delta: '{"location":"San Francisco"}' },
      ]);
      expect(response.usage.output).toEqual({ total: 15 + thoughts, text: 15, reasoning: thoughts });
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'STOP' });
    });

    it.each([
      [
        'google-tool-call.json',
        'EskgCsYgAb4+9vtF7/499YQS2bjZs3xcQI+iAl+ILn29nK1j0Kg6su7QsUUUk3nrAAfnS2w5WiVvlcCqu9fAebJ2cvfaEyBahEt5',
        893,
      ],
      [
        'google-tool-call-gemini3.json',
        'Eqo+Cqc+Ab4+9vtgONaaz6qwy6WXdp7gCd2w0X+Wz2gaBgY0Gv6A12JKo0y5vQwf9YQFyhMbKr1E9m17VT6HXd7jXzjaGYaE',
        1801,
      ],
    ])('%s: createMessage reads the function call and its signature', async (name, signature, thoughts) => {
      const response = await replayBody(name);
      expect(response.message.content).toMatchObject([
        {
          type: 'tool_use',
          name: 'weather',
          input: { location: 'San Francisco' },
          providerMetadata: { gemini: { thoughtSignature: signature } },
        },
      ]);
      expect(response.usage.output.reasoning).toBe(thoughts);
      expect(response.usage.output.total).toBe(15 + thoughts);
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'STOP' });
    });

    it('google-stream-no-args-tool-call.chunks.txt: a thought, a call without arguments, three calls with streamed arguments', async () => {
      const { events, response } = await replayStream('google-stream-no-args-tool-call.chunks.txt');
      expect(events[0]).toMatchObject({ type: 'message-start', model: 'gemini-3-flash-preview' });
      const signature = signatureIn(fixture('google-gemini/google-stream-no-args-tool-call.chunks.txt'), 0);
      const [thinking, ...calls] = response.message.content;
      expect(thinking).toMatchObject({ type: 'thinking' });
      expect(
        thinking?.type === 'thinking' && thinking.thinking.startsWith("**Processing User Requests**\n\nI've started"),
      ).toBe(true);
      expect(thinking?.providerMetadata).toBeUndefined();
      expect(calls).toEqual([
        {
          type: 'tool_use',
          id: expect.any(String),
          name: 'read_theme',
          input: {},
          providerMetadata: { gemini: { thoughtSignature: signature } },
        },
        { type: 'tool_use', id: expect.any(String), name: 'read_screen', input: { id: 'A' } },
        { type: 'tool_use', id: expect.any(String), name: 'read_screen', input: { id: 'B' } },
        { type: 'tool_use', id: expect.any(String), name: 'read_screen', input: { id: 'C' } },
      ]);
      const ids = calls.map((call) => (call.type === 'tool_use' ? call.id : ''));
      expect(new Set(ids).size).toBe(4);
      expect(response.usage).toEqual({
        input: { total: 249, noCache: 249, cacheRead: 0, cacheWrite: 0 },
        output: { total: 241, text: 58, reasoning: 183 },
      });
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'STOP' });
    });

    it('google-429-retry-info.json: a 429 with RetryInfo is a rate limit retried after 34.4 s', async () => {
      const body = readFileSync(fixture('google-gemini/google-429-retry-info.json'), 'utf8');
      const success = readFileSync(fixture('google-gemini/google-text.json'), 'utf8');
      const server = await serveSequence([
        { status: 429, body },
        { status: 200, body: success },
      ]);
      try {
        const response = await createGeminiProvider({ ...fast, baseURL: server.url }).createMessage(request);
        expect(sleeps).toEqual([34_400]);
        expect(server.hits()).toBe(2);
        expect(response.finishReason.raw).toBe('STOP');
      } finally {
        await server.close();
      }
    });

    it('google-429-retry-info.json: a wait beyond maxRetryAfterMs fails at once as rate_limit', async () => {
      const body = readFileSync(fixture('google-gemini/google-429-retry-info.json'), 'utf8');
      const server = await serveSequence([{ status: 429, body }]);
      try {
        const settings = { ...fast, baseURL: server.url, retry: { ...fast.retry, maxRetryAfterMs: 10_000 } };
        const events = await collectEvents(createGeminiProvider(settings).streamMessage(request));
        const last = events.at(-1);
        expect(last?.type).toBe('error');
        if (last?.type !== 'error') return;
        expect(isRateLimitError(last.error)).toBe(true);
        expect(last.error.retryAfterMs).toBe(34_400);
        expect(last.error.status).toBe(429);
        expect(server.hits()).toBe(1);
        expect(sleeps).toEqual([]);
      } finally {
        await server.close();
      }
    });
  },
);

describe('scripted Gemini turns the recordings do not cover', () => {
  it('thinking with a signature, text and two calls in one turn', async () => {
    mock.setScript({
      steps: [
        {
          content: [
            { type: 'thinking', thinking: 'Two files to read.', signature: 'sig-a' },
            { type: 'text', text: 'Reading both.' },
            { type: 'tool_call', id: 'call_a', name: 'read', input: { path: 'a' } },
            { type: 'tool_call', id: 'call_b', name: 'read', input: {} },
          ],
          usage: { input: 120, cacheRead: 100, output: 40, reasoning: 10 },
          chunking: { textDelta: 4 },
        },
      ],
    });
    const events = await collectEvents(provider().streamMessage(request));
    expectWellFormed(events);
    const response = await assembleMessage(events);
    expect(response.message.content).toEqual([
      { type: 'thinking', thinking: 'Two files to read.', providerMetadata: { gemini: { thoughtSignature: 'sig-a' } } },
      { type: 'text', text: 'Reading both.' },
      {
        type: 'tool_use',
        id: 'call_a',
        name: 'read',
        input: { path: 'a' },
        providerMetadata: { gemini: { functionCallId: 'call_a' } },
      },
      {
        type: 'tool_use',
        id: 'call_b',
        name: 'read',
        input: {},
        providerMetadata: { gemini: { functionCallId: 'call_b' } },
      },
    ]);
    expect(response.usage).toEqual({
      input: { total: 120, noCache: 20, cacheRead: 100, cacheWrite: 0 },
      output: { total: 40, text: 30, reasoning: 10 },
    });
    expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'STOP' });
  });

  it.each([
    [{ stopReason: 'max_tokens' as const }, { unified: 'length', raw: 'MAX_TOKENS' }],
    [{ stopReason: 'content_filter' as const }, { unified: 'content-filter', raw: 'SAFETY' }],
    [{ rawStopReason: 'SOMETHING_NEW' }, { unified: 'other', raw: 'SOMETHING_NEW' }],
    [{ rawStopReason: 'MALFORMED_FUNCTION_CALL' }, { unified: 'error', raw: 'MALFORMED_FUNCTION_CALL' }],
  ])('finish %j maps to %j without throwing', async (turn, finishReason) => {
    mock.setScript({ steps: [{ text: 'Partial', ...turn }] });
    const response = await provider().createMessage(request);
    expect(response.finishReason).toEqual(finishReason);
  });

  it('createMessage and streamMessage assemble the same message for the same turn', async () => {
    const turn = {
      content: [
        { type: 'thinking' as const, thinking: 'Hmm.', signature: 'sig-b' },
        { type: 'text' as const, text: 'Answer 😀' },
        { type: 'tool_call' as const, id: 'fixed-id', name: 'grep', input: { pattern: 'port', limit: 3 } },
      ],
      usage: { input: 50, output: 20, reasoning: 5 },
    };
    mock.setScript({ steps: [turn, turn] });
    const streamed = await assembleMessage(provider().streamMessage(request));
    const created = await provider().createMessage(request);
    expect(created.message).toEqual(streamed.message);
    expect(created.usage).toEqual(streamed.usage);
    expect(created.finishReason).toEqual(streamed.finishReason);
    expect(mock.requests.map((recorded) => recorded.path)).toEqual([
      '/v1beta/models/gemini-3-pro-preview:streamGenerateContent',
      '/v1beta/models/gemini-3-pro-preview:generateContent',
    ]);
    expect(mock.requests[0]?.query).toEqual({ alt: 'sse' });
  });

  it('listModels follows the Gemini list and strips the models/ prefix', async () => {
    const models = await provider().listModels();
    expect(models).toEqual([
      { id: 'mock-model', name: 'mock-model', contextWindow: 1_048_576, maxOutputTokens: 65_536 },
    ]);
    expect(mock.requests[0]?.path).toBe('/v1beta/models');
    expect(mock.requests[0]?.headers['x-goog-api-key']).toBe('***6789');
  });
});

interface SequenceServer {
  url: string;
  hits(): number;
  close(): Promise<void>;
}

/** A loopback server answering requests in order with the given statuses and bodies (the last repeats). */
async function serveSequence(answers: Array<{ status: number; body: string }>): Promise<SequenceServer> {
  let count = 0;
  const server: Server = createServer((incoming, outgoing) => {
    incoming.resume();
    incoming.on('end', () => {
      const answer = answers[Math.min(count, answers.length - 1)] ?? { status: 500, body: '{}' };
      count += 1;
      outgoing.writeHead(answer.status, { 'content-type': 'application/json' });
      outgoing.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1beta`,
    hits: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
