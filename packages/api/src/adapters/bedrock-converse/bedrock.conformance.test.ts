import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../../test/fixtures.js';
import { collect, eventShape, expectWellFormed, helloRequest, testCredentials } from './bedrock.test.helpers.js';
import { createBedrockConverseProvider } from './bedrock-provider.js';

// Every recorded Bedrock Converse response, replayed by the mock as binary event-stream frames
// (`.chunks.txt`, through streamMessage) or a whole body (`.json`, through createMessage), plus
// scripted streams for what the recordings miss. Expectations come from reading each file.

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer();
});

afterAll(async () => {
  await mock.close();
});

function provider() {
  return createBedrockConverseProvider({
    baseURL: mock.url,
    region: 'us-east-1',
    credentials: testCredentials,
    retry: { maxRetries: 0 },
  });
}

async function streamSteps(...steps: Parameters<MockServer['setScript']>[0]['steps'] & object) {
  mock.setScript({ steps });
  const events = await collect(provider());
  expectWellFormed(events);
  return { events, response: await assembleMessage(events) };
}

const THINKING =
  'Let me count the r\'s in "strawberry":\n\ns-t-r-a-w-b-e-r-r-y\n\nr appears at positions 3, 8, and 9.\n\nSo there are 3 r\'s.';

describe.skipIf(!providerStreamsDir)(
  `recorded Bedrock responses ${providerStreamsDir ? '' : fixturesSkipReason}`,
  () => {
    it('amazon-bedrock-text.chunks.txt: one text block, end_turn, usage and metrics', async () => {
      const { events, response } = await streamSteps({
        replay: fixture('bedrock-converse/amazon-bedrock-text.chunks.txt'),
      });
      expect(eventShape(events)).toEqual([
        'message-start',
        'text-start',
        'text-delta*',
        'text-end',
        'usage',
        'message-end',
      ]);
      expect(events.filter((event) => event.type === 'text-delta')).toHaveLength(12);
      expect(response.message.content).toEqual([
        {
          type: 'text',
          text: 'Let me count the "r"s in "strawberry":\n\ns-t-**r**-a-w-b-e-**r**-**r**-y\n\nThere are **3** r\'s in "strawberry."',
        },
      ]);
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'end_turn' });
      expect(response.usage).toEqual({
        input: { total: 22, noCache: 22, cacheRead: 0, cacheWrite: 0 },
        output: { total: 55, text: 55, reasoning: 0 },
      });
      expect(response.model).toBe(helloRequest.model);
      expect(response.id).toMatch(/^req_mock/);
      expect(response.message.providerMetadata).toEqual({
        bedrock: { metrics: { latencyMs: 2040 }, additionalModelResponseFields: { delta: { stop_sequence: null } } },
      });
    });

    it('amazon-bedrock-reasoning.chunks.txt: thinking with its signature, then text', async () => {
      const { events, response } = await streamSteps({
        replay: fixture('bedrock-converse/amazon-bedrock-reasoning.chunks.txt'),
      });
      expect(eventShape(events)).toEqual([
        'message-start',
        'thinking-start',
        'thinking-delta*',
        'thinking-signature-delta*',
        'thinking-end',
        'text-start',
        'text-delta*',
        'text-end',
        'usage',
        'message-end',
      ]);
      // The empty reasoning delta before the signature yields nothing.
      expect(events.filter((event) => event.type === 'thinking-delta')).toHaveLength(10);
      const [thinking, text] = response.message.content;
      expect(thinking).toEqual({
        type: 'thinking',
        thinking: THINKING,
        signature: expect.stringMatching(/^Ep0CCkgICxABGAIqQOWPB6\/PmA5S.*4vgpFTPuZ97mfiN3LY6uYyBwL8RkDaGAE=$/),
      });
      expect(thinking?.type === 'thinking' && thinking.signature?.length).toBe(388);
      expect(text).toEqual({
        type: 'text',
        text: 'There are **3** r\'s in "strawberry":\n\n1. st**r**awbe**r****r**y',
      });
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'end_turn' });
      expect(response.usage.input.total).toBe(51);
      expect(response.usage.output.total).toBe(94);
    });

    it('amazon-bedrock-tool-call.1.chunks.txt: no messageStart, metadata before messageStop', async () => {
      const { events, response } = await streamSteps({
        replay: fixture('bedrock-converse/amazon-bedrock-tool-call.1.chunks.txt'),
      });
      expect(eventShape(events)).toEqual([
        'message-start',
        'tool-call-start',
        'tool-call-input-delta*',
        'tool-call-end',
        'usage',
        'message-end',
      ]);
      expect(events.find((event) => event.type === 'tool-call-end')).toMatchObject({
        toolCallId: 'tool-use-id',
        toolName: 'test-tool',
        input: { value: 'Sparkle Day' },
      });
      expect(response.message.content).toEqual([
        { type: 'tool_use', id: 'tool-use-id', name: 'test-tool', input: { value: 'Sparkle Day' } },
      ]);
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
      expect(response.usage).toEqual({
        input: { total: 125, noCache: 125, cacheRead: 0, cacheWrite: 0 },
        output: { total: 45, text: 45, reasoning: 0 },
      });
    });

    it('amazon-bedrock-text.json through createMessage', async () => {
      mock.setScript({ steps: [{ replay: fixture('bedrock-converse/amazon-bedrock-text.json') }] });
      const response = await provider().createMessage(helloRequest);
      expect(response.message.content).toEqual([
        {
          type: 'text',
          text: 'Let me count the "r"s in "strawberry":\n\ns-t-**r**-a-w-b-e-**r**-**r**-y\n\nThere are **3** "r"s in "strawberry."',
        },
      ]);
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'end_turn' });
      expect(response.usage).toEqual({
        input: { total: 22, noCache: 22, cacheRead: 0, cacheWrite: 0 },
        output: { total: 57, text: 57, reasoning: 0 },
      });
      expect(response.message.providerMetadata).toEqual({ bedrock: { metrics: { latencyMs: 1864 } } });
    });

    it('amazon-bedrock-reasoning.json through createMessage: reasoningText with signature', async () => {
      mock.setScript({ steps: [{ replay: fixture('bedrock-converse/amazon-bedrock-reasoning.json') }] });
      const response = await provider().createMessage(helloRequest);
      expect(response.message.content).toEqual([
        {
          type: 'thinking',
          thinking: 'Let me count the r\'s in "strawberry":\n\ns-t-r-a-w-b-e-r-r-y\n\nThere are 3 r\'s.',
          signature: expect.stringMatching(/^EvYBCkgICxABGAIqQA9E9VC377.*GAE=$/),
        },
        { type: 'text', text: 'There are **3** r\'s in "strawberry":\n\n1. st**r**awbe**r****r**y' },
      ]);
      expect(response.usage).toEqual({
        input: { total: 51, noCache: 51, cacheRead: 0, cacheWrite: 0 },
        output: { total: 78, text: 78, reasoning: 0 },
      });
    });

    it('amazon-bedrock-tool-call.1.json through createMessage: input already an object', async () => {
      mock.setScript({ steps: [{ replay: fixture('bedrock-converse/amazon-bedrock-tool-call.1.json') }] });
      const response = await provider().createMessage(helloRequest);
      expect(response.message.content).toEqual([
        { type: 'tool_use', id: 'tool-use-id', name: 'bash', input: { command: 'ls -l' } },
      ]);
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
      expect(response.usage.input.total).toBe(10);
      expect(response.usage.output.total).toBe(20);
      expect(response.message.providerMetadata).toBeUndefined();
    });
  },
);

describe('scripted Bedrock streams', () => {
  it('createMessage and streamMessage assemble the same message for the same turn', async () => {
    const turn = {
      content: [
        { type: 'thinking' as const, thinking: 'Plan: read the file.', signature: 'sig-1' },
        { type: 'redacted_thinking' as const, data: 'ZW5jcnlwdGVk' },
        { type: 'text' as const, text: 'Reading it. 😀' },
        { type: 'tool_call' as const, id: 'tooluse_a', name: 'read', input: { path: 'a.txt' } },
        { type: 'tool_call' as const, id: 'tooluse_b', name: 'list', input: {} },
      ],
      usage: { input: 1200, output: 40, cacheRead: 1000, cacheWrite: 100 },
      chunking: { textDelta: 3, argumentsDelta: 2 },
    };
    const { response: streamed } = await streamSteps(turn);
    mock.setScript({ steps: [turn] });
    const created = await provider().createMessage(helloRequest);
    expect(created.message.content).toEqual(streamed.message.content);
    expect(created.finishReason).toEqual(streamed.finishReason);
    expect(created.usage).toEqual(streamed.usage);
    expect(streamed.message.content).toEqual([
      { type: 'thinking', thinking: 'Plan: read the file.', signature: 'sig-1' },
      { type: 'redacted_thinking', data: 'ZW5jcnlwdGVk' },
      { type: 'text', text: 'Reading it. 😀' },
      { type: 'tool_use', id: 'tooluse_a', name: 'read', input: { path: 'a.txt' } },
      { type: 'tool_use', id: 'tooluse_b', name: 'list', input: {} },
    ]);
    expect(streamed.usage).toEqual({
      input: { total: 1200, noCache: 100, cacheRead: 1000, cacheWrite: 100 },
      output: { total: 40, text: 40, reasoning: 0 },
    });
  });

  it('a tool call with no input delta at all has input {}', async () => {
    const { events, response } = await streamSteps({
      content: [{ type: 'tool_call', id: 'tooluse_empty', name: 'now', rawArguments: '' }],
    });
    expect(events.filter((event) => event.type === 'tool-call-input-delta')).toHaveLength(0);
    expect(response.message.content).toEqual([{ type: 'tool_use', id: 'tooluse_empty', name: 'now', input: {} }]);
  });

  it.each([
    ['max_tokens', 'length'],
    ['stop_sequence', 'stop'],
    ['guardrail_intervened', 'content-filter'],
    ['content_filtered', 'content-filter'],
    ['model_context_window_exceeded', 'length'],
    ['malformed_tool_use', 'error'],
    ['something_new', 'other'],
  ])('stopReason %s is %s, raw kept', async (raw, unified) => {
    const { response } = await streamSteps({ text: 'cut', rawStopReason: raw });
    expect(response.finishReason).toEqual({ unified, raw });
  });

  it('frames split into 7-byte socket writes decode the same', async () => {
    const { response } = await streamSteps({
      content: [{ type: 'text', text: 'Split across chunks, ünïcödé 😀' }],
      chunking: { writeBytes: 7, textDelta: 4 },
    });
    expect(response.message.content).toEqual([{ type: 'text', text: 'Split across chunks, ünïcödé 😀' }]);
  });
});
