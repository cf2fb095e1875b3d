import { type MockServer, type MockStep, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../../test/fixtures.js';
import { collect, eventShape, expectWellFormed, helloRequest, testApiKey } from './cohere.test.helpers.js';
import { createCohereProvider } from './cohere-provider.js';

// Every recorded Cohere v2 response, replayed by the mock as SSE (`.chunks.txt`, through
// streamMessage) or a whole body (`.json`, through createMessage), plus scripted streams for what the
// recordings miss. Expectations come from reading each file.

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer();
});

afterAll(async () => {
  await mock.close();
});

function provider() {
  return createCohereProvider({ baseURL: mock.url, apiKey: testApiKey, retry: { maxRetries: 0 } });
}

async function streamSteps(...steps: MockStep[]) {
  mock.setScript({ steps });
  const events = await collect(provider());
  expectWellFormed(events);
  return { events, response: await assembleMessage(events) };
}

const TOOL_PLAN = { cohere: { toolPlan: true } };

describe.skipIf(!providerStreamsDir)(
  `recorded Cohere responses ${providerStreamsDir ? '' : fixturesSkipReason}`,
  () => {
    it('cohere-text.chunks.txt: one text block, COMPLETE, tokens with cache hits', async () => {
      const { events, response } = await streamSteps({ replay: fixture('cohere-v2/cohere-text.chunks.txt') });
      expect(eventShape(events)).toEqual(['message-start', 'text-start', 'text-delta*', 'text-end', 'message-end']);
      expect(events.filter((event) => event.type === 'text-delta')).toHaveLength(7);
      expect(response.id).toBe('321d178c-2c12-44d3-ae42-2f5510f6b1cc');
      expect(response.model).toBe(helloRequest.model);
      expect(response.message.content).toEqual([{ type: 'text', text: 'The capital of France is Paris.' }]);
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'COMPLETE' });
      expect(response.usage).toEqual({
        input: { total: 507, noCache: 59, cacheRead: 448, cacheWrite: 0 },
        output: { total: 10, text: 10, reasoning: 0 },
      });
      expect(response.message.providerMetadata).toEqual({
        cohere: { billed_units: { input_tokens: 12, output_tokens: 7 } },
      });
    });

    it('cohere-reasoning.chunks.txt: a thinking block, then text', async () => {
      const { events, response } = await streamSteps({ replay: fixture('cohere-v2/cohere-reasoning.chunks.txt') });
      expect(eventShape(events)).toEqual([
        'message-start',
        'thinking-start',
        'thinking-delta*',
        'thinking-end',
        'text-start',
        'text-delta*',
        'text-end',
        'message-end',
      ]);
      expect(response.message.content).toEqual([
        {
          type: 'thinking',
          thinking:
            "The user is asking for the sum of 2 and 2. Since this is a straightforward arithmetic problem, I don't need to use any tools. I can calculate the answer directly.",
        },
        { type: 'text', text: 'The answer to 2 + 2 is 4.' },
      ]);
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'COMPLETE' });
      expect(response.usage).toEqual({
        input: { total: 1394, noCache: 34, cacheRead: 1360, cacheWrite: 0 },
        output: { total: 54, text: 54, reasoning: 0 },
      });
    });

    it('cohere-tool-call.chunks.txt: the tool plan as a marked thinking block (not answer text), two tool calls', async () => {
      const { events, response } = await streamSteps({ replay: fixture('cohere-v2/cohere-tool-call.chunks.txt') });
      expect(events.some((event) => event.type === 'text-delta')).toBe(false);
      expect(eventShape(events)).toEqual([
        'message-start',
        'thinking-start',
        'thinking-delta*',
        'thinking-end',
        'tool-call-start',
        'tool-call-input-delta*',
        'tool-call-end',
        'tool-call-start',
        'tool-call-input-delta*',
        'tool-call-end',
        'message-end',
      ]);
      expect(response.id).toBe('2941521a-b87a-45f6-9b0d-235fd66c3025');
      expect(response.message.content).toEqual([
        {
          type: 'thinking',
          thinking:
            'I will use the weather tool to find the weather in San Francisco and the cityAttractions tool to find attractions in San Francisco.',
          providerMetadata: TOOL_PLAN,
        },
        { type: 'tool_use', id: 'weather_e8p4pn45zt0t', name: 'weather', input: { location: 'San Francisco' } },
        {
          type: 'tool_use',
          id: 'cityAttractions_pyxssbwnq9fq',
          name: 'cityAttractions',
          input: { city: 'San Francisco' },
        },
      ]);
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'TOOL_CALL' });
      expect(response.usage).toEqual({
        input: { total: 1549, noCache: 45, cacheRead: 1504, cacheWrite: 0 },
        output: { total: 95, text: 95, reasoning: 0 },
      });
    });

    it('cohere-text.json through createMessage', async () => {
      mock.setScript({ steps: [{ replay: fixture('cohere-v2/cohere-text.json') }] });
      const response = await provider().createMessage(helloRequest);
      expect(response.id).toBe('e7592632-1e3d-424f-b129-bd5f9f980f7b');
      expect(response.message.content).toEqual([{ type: 'text', text: 'The capital of France is Paris.' }]);
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'COMPLETE' });
      expect(response.usage.input).toEqual({ total: 507, noCache: 59, cacheRead: 448, cacheWrite: 0 });
      expect(response.usage.output.total).toBe(10);
    });

    it('cohere-tool-call.json through createMessage: tool_plan then calls with string arguments', async () => {
      mock.setScript({ steps: [{ replay: fixture('cohere-v2/cohere-tool-call.json') }] });
      const response = await provider().createMessage(helloRequest);
      expect(response.message.content).toEqual([
        {
          type: 'thinking',
          thinking:
            'I will use the weather tool to find out the weather in San Francisco. I will also use the cityAttractions tool to find out what attractions are in San Francisco.',
          providerMetadata: TOOL_PLAN,
        },
        { type: 'tool_use', id: 'weather_dqgshstja6p9', name: 'weather', input: { location: 'San Francisco' } },
        {
          type: 'tool_use',
          id: 'cityAttractions_dcxfx4myvx68',
          name: 'cityAttractions',
          input: { city: 'San Francisco' },
        },
      ]);
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'TOOL_CALL' });
      expect(response.usage).toEqual({
        input: { total: 1549, noCache: 557, cacheRead: 992, cacheWrite: 0 },
        output: { total: 103, text: 103, reasoning: 0 },
      });
      expect(response.message.providerMetadata).toEqual({
        cohere: { billed_units: { input_tokens: 119, output_tokens: 52 } },
      });
    });
  },
);

describe('scripted Cohere streams', () => {
  it('createMessage and streamMessage assemble the same message for the same turn', async () => {
    const turn = {
      content: [
        { type: 'thinking' as const, thinking: 'Read the file first.' },
        { type: 'text' as const, text: 'Reading it. 😀 ünïcödé' },
        { type: 'tool_call' as const, id: 'read_1', name: 'read', input: { path: 'a.txt', lines: [1, 2] } },
      ],
      usage: { input: 900, output: 30, cacheRead: 600 },
      chunking: { textDelta: 3, argumentsDelta: 2 },
    };
    const { response: streamed } = await streamSteps(turn);
    mock.setScript({ steps: [turn] });
    const created = await provider().createMessage(helloRequest);
    expect(created.message.content).toEqual(streamed.message.content);
    expect(created.finishReason).toEqual(streamed.finishReason);
    expect(created.usage).toEqual(streamed.usage);
    expect(streamed.message.content).toEqual([
      { type: 'thinking', thinking: 'Read the file first.' },
      { type: 'thinking', thinking: 'Reading it. 😀 ünïcödé', providerMetadata: TOOL_PLAN },
      { type: 'tool_use', id: 'read_1', name: 'read', input: { path: 'a.txt', lines: [1, 2] } },
    ]);
    expect(streamed.usage.input).toEqual({ total: 900, noCache: 300, cacheRead: 600, cacheWrite: 0 });
  });

  it('a tool call with empty arguments has input {}', async () => {
    const { events, response } = await streamSteps({
      content: [{ type: 'tool_call', id: 'now_1', name: 'now', rawArguments: '' }],
    });
    expect(events.filter((event) => event.type === 'tool-call-input-delta')).toHaveLength(0);
    expect(response.message.content).toEqual([{ type: 'tool_use', id: 'now_1', name: 'now', input: {} }]);
  });

  it.each([
    ['MAX_TOKENS', 'length'],
    ['STOP_SEQUENCE', 'stop'],
    ['TIMEOUT', 'error'],
    ['ERROR', 'error'],
    ['SOMETHING_NEW', 'other'],
  ])('finish_reason %s is %s, raw kept', async (raw, unified) => {
    const { response } = await streamSteps({ text: 'cut', rawStopReason: raw });
    expect(response.finishReason).toEqual({ unified, raw });
  });
});
