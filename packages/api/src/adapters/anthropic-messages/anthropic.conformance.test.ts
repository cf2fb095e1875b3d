import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../../test/fixtures.js';
import { collect, eventShape, expectWellFormed, helloRequest } from './anthropic.test.helpers.js';
import { createAnthropicMessagesProvider } from './anthropic-provider.js';

// Every recorded Anthropic response, replayed by the mock server as the API sent it, through the
// adapter: `.chunks.txt` via streamMessage, `.json` via createMessage. Expectations come from
// reading each file.

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer();
});

afterAll(async () => {
  await mock.close();
});

function provider() {
  return createAnthropicMessagesProvider({
    baseURL: mock.url,
    apiKey: 'conformance-key-0123456789',
    retry: { maxRetries: 0 },
  });
}

async function streamFixture(name: string) {
  mock.setScript({ steps: [{ replay: fixture(`anthropic-messages/${name}`) }] });
  const events = await collect(provider());
  expectWellFormed(events);
  return { events, response: await assembleMessage(events) };
}

async function createFixture(name: string) {
  mock.setScript({ steps: [{ replay: fixture(`anthropic-messages/${name}`) }] });
  return provider().createMessage(helloRequest);
}

describe.skipIf(!providerStreamsDir)(
  `recorded Anthropic responses ${providerStreamsDir ? '' : fixturesSkipReason}`,
  () => {
    it('anthropic-text.chunks.txt: text deltas in one block, pings ignored, cumulative usage', async () => {
      const { events, response } = await streamFixture('anthropic-text.chunks.txt');
      expect(eventShape(events)).toEqual([
        'message-start',
        'usage',
        'text-start',
        'text-delta*',
        'text-end',
        'usage',
        'message-end',
      ]);
      expect(response.id).toBe('msg_01QC4g3HwBThD4BaNtBckFDJ');
      expect(response.model).toBe('claude-sonnet-4-5-20250929');
      expect(response.message.content).toEqual([
        {
          type: 'text',
          text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
        },
      ]);
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'end_turn' });
      expect(response.usage).toEqual({
        input: { total: 12, noCache: 12, cacheRead: 0, cacheWrite: 0 },
        output: { total: 30, text: 30, reasoning: 0 },
      });
      expect(response.message.providerMetadata).toBeUndefined();
    });

    it('anthropic-text.json: the same through createMessage', async () => {
      const response = await createFixture('anthropic-text.json');
      expect(response.id).toBe('msg_01VdEjxAP5ahtHKrrRdNBteQ');
      expect(response.message.content).toEqual([
        {
          type: 'text',
          text: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?",
        },
      ]);
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'end_turn' });
      expect(response.usage.input.total).toBe(12);
      expect(response.usage.output.total).toBe(29);
    });

    it('anthropic-json-tool.1.chunks.txt: a tool call assembled from input_json_delta pieces', async () => {
      const { events, response } = await streamFixture('anthropic-json-tool.1.chunks.txt');
      const end = events.find((event) => event.type === 'tool-call-end');
      expect(end).toMatchObject({ toolCallId: 'toolu_01KFbKqPYSuAKujiL6mTfzYA', toolName: 'json' });
      expect(response.message.content).toEqual([
        {
          type: 'tool_use',
          id: 'toolu_01KFbKqPYSuAKujiL6mTfzYA',
          name: 'json',
          input: { elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] },
        },
      ]);
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
      expect(response.usage.input.total).toBe(849);
      expect(response.usage.output.total).toBe(47);
    });

    it('anthropic-json-tool.1.json: the tool input object of a whole message', async () => {
      const response = await createFixture('anthropic-json-tool.1.json');
      expect(response.message.content).toEqual([
        {
          type: 'tool_use',
          id: 'toolu_01Q9ExVZnzZj7E2QQYHYtNUa',
          name: 'json',
          input: {
            elements: [
              { location: 'San Francisco', temperature: -5, condition: 'snowy' },
              { location: 'London', temperature: 0, condition: 'snowy' },
              { location: 'Paris', temperature: 23, condition: 'cloudy' },
              { location: 'Berlin', temperature: -9, condition: 'snowy' },
            ],
          },
        },
      ]);
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
      expect(response.usage).toEqual({
        input: { total: 1151, noCache: 1151, cacheRead: 0, cacheWrite: 0 },
        output: { total: 87, text: 87, reasoning: 0 },
      });
    });

    it('anthropic-tool-no-args.chunks.txt: text then a call with no argument text parses to {}', async () => {
      const { events, response } = await streamFixture('anthropic-tool-no-args.chunks.txt');
      expect(events.filter((event) => event.type === 'tool-call-input-delta')).toEqual([]);
      expect(response.message.content).toEqual([
        { type: 'text', text: "I'll update the issue list for you." },
        { type: 'tool_use', id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', input: {} },
      ]);
      expect(response.finishReason.unified).toBe('tool-calls');
      expect(response.usage.input.total).toBe(565);
      expect(response.usage.output.total).toBe(48);
    });

    it('anthropic-tool-no-args.json: text and a call with input {}', async () => {
      const response = await createFixture('anthropic-tool-no-args.json');
      expect(response.model).toBe('claude-3-opus-20240229');
      expect(response.message.content).toHaveLength(2);
      expect(response.message.content[0]).toMatchObject({ type: 'text' });
      expect(response.message.content[0]?.type === 'text' && response.message.content[0].text).toMatch(
        /^<thinking>\nThe updateIssueList tool[\s\S]*Okay, I will update the current issue list:$/,
      );
      expect(response.message.content[1]).toEqual({
        type: 'tool_use',
        id: 'toolu_01LRmxn9vGM1d2DZSDBowdZ1',
        name: 'updateIssueList',
        input: {},
      });
      expect(response.usage.input.total).toBe(602);
      expect(response.usage.output.total).toBe(93);
    });

    it('anthropic-clear-thinking.1.chunks.txt: thinking with its signature, then text', async () => {
      const { events, response } = await streamFixture('anthropic-clear-thinking.1.chunks.txt');
      expect(eventShape(events)).toEqual([
        'message-start',
        'usage',
        'thinking-start',
        'thinking-delta*',
        'thinking-signature-delta',
        'thinking-end',
        'text-start',
        'text-delta*',
        'text-end',
        'usage',
        'message-end',
      ]);
      expect(response.message.content).toEqual([
        {
          type: 'thinking',
          thinking: 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185',
          signature:
            'EvQBCkYICxgCKkAxhD4NUKFzudtZ6NzbZdEiBACIScTzqjPViM596iWLZIk4EFKYYBj3B6Ptl3b0dcQv/VeJBNbejNWIWRBn+KPNEgz6HWtKx7p+QRgKsEoaDGjsiqfht7gTRFYHiyIwD1VSmNqHxv3wy8KEMP+LYb/TC4UH3H97tuoaADARFFcA0phdfxnzKQxFnc9lwY+dKlzUsaKSUAFeu1bDL5ikZJ1vL0Fkz6JjoFke0L/wOJRIUDUlDUOFJ1tZ3ea7g6LGE/5hwuvWgLwewdcm64d+43l7F57XrOmqNd6flI2K/oPr/4yzNgvi/EhT6Ca17BgB',
        },
        { type: 'text', text: '925 ÷ 5 = 185' },
      ]);
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'end_turn' });
      expect(response.usage.input.total).toBe(69);
      expect(response.usage.output.total).toBe(53);
    });

    it('anthropic-clear-thinking.1.json: thinking and signature of a whole message', async () => {
      const response = await createFixture('anthropic-clear-thinking.1.json');
      expect(response.message.content).toEqual([
        {
          type: 'thinking',
          thinking: '925 divided by 5 = 185',
          signature:
            'Er4BCkYICxgCKkCoxqLHLrx4mFL9Ox7/aHKht87WDzXfvZ7qbZKSnHV8imA5b3LXxuVqcXQ9z5sXwDx20JIW/+6DJehOSNK72L83Egx0T9s7VzB6QUK9g5kaDO9lGaWN5CPEDJU0lyIw4+Ed3q4N9w+16h3cfQ+9stJXHCl+1nYDxjIOLcyJT8Ug/LTmtlp4bbxWmmfNicayKiasdReHiOnqz1sKEF0pR4kcnF5mQGdLxk8q3A3NY+wGsH8MtUIqxRgB',
        },
        { type: 'text', text: '925 ÷ 5 = 185' },
      ]);
      expect(response.usage.output.total).toBe(33);
    });

    const refusalDetails = {
      type: 'refusal',
      category: 'cyber',
      explanation:
        "This request triggered restrictions on violative cyber content and was blocked under Anthropic's Usage Policy.",
      recommended_model: 'claude-fable-5',
    };

    it('anthropic-refusal.chunks.txt: no content, finish refusal, the stop details kept', async () => {
      const { events, response } = await streamFixture('anthropic-refusal.chunks.txt');
      expect(eventShape(events)).toEqual(['message-start', 'usage*', 'message-end']);
      expect(response.message.content).toEqual([]);
      expect(response.finishReason).toEqual({ unified: 'refusal', raw: 'refusal' });
      expect(response.message.providerMetadata).toEqual({ anthropic: { stopDetails: refusalDetails } });
      expect(response.usage.input.total).toBe(18);
      expect(response.usage.output.total).toBe(5);
    });

    it('anthropic-refusal.json: the same through createMessage', async () => {
      const response = await createFixture('anthropic-refusal.json');
      expect(response.id).toBe('msg_01RefusalExampleAbcdefghijk');
      expect(response.message.content).toEqual([]);
      expect(response.finishReason).toEqual({ unified: 'refusal', raw: 'refusal' });
      expect(response.message.providerMetadata).toEqual({ anthropic: { stopDetails: refusalDetails } });
    });

    it('anthropic-code-execution-20260120-prompt-cache.1.chunks.txt: server blocks kept as metadata, cache usage', async () => {
      const { events, response } = await streamFixture('anthropic-code-execution-20260120-prompt-cache.1.chunks.txt');
      // Server tool use and its results emit no events; the text block is the message's only block.
      expect(eventShape(events)).toEqual([
        'message-start',
        'usage',
        'text-start',
        'text-delta*',
        'text-end',
        'usage',
        'message-end',
      ]);
      expect(response.message.content).toEqual([
        { type: 'text', text: 'The sum of the squares of the numbers 1 through 12 is **650**.' },
      ]);
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'end_turn' });
      // message_delta's cumulative counts replace message_start's; cached tokens are counted once.
      expect(response.usage).toEqual({
        input: { total: 9632, noCache: 6, cacheRead: 6289, cacheWrite: 3337 },
        output: { total: 198, text: 198, reasoning: 0 },
      });
      const anthropic = response.message.providerMetadata?.anthropic;
      expect(anthropic?.container).toEqual({
        id: 'container_01Qh1LG5zm6onKQjYrHnhrvi',
        expires_at: '2026-07-30T18:54:08.960841Z',
      });
      expect(anthropic?.serverBlocks).toEqual([
        {
          position: 0,
          block: {
            type: 'server_tool_use',
            id: 'srvtoolu_011fxGj786xCAh2kPk9GMxQw',
            name: 'bash_code_execution',
            input: { command: 'for n in $(seq 1 12); do echo "$n: $((n*n))"; done' },
          },
        },
        {
          position: 0,
          block: {
            type: 'bash_code_execution_tool_result',
            tool_use_id: 'srvtoolu_011fxGj786xCAh2kPk9GMxQw',
            content: {
              type: 'bash_code_execution_result',
              stdout: '1: 1\n2: 4\n3: 9\n4: 16\n5: 25\n6: 36\n7: 49\n8: 64\n9: 81\n10: 100\n11: 121\n12: 144\n',
              stderr: '',
              return_code: 0,
              content: [],
            },
          },
        },
        {
          position: 0,
          block: {
            type: 'server_tool_use',
            id: 'srvtoolu_013eUksWZnfcjFk1iarJsYgM',
            name: 'bash_code_execution',
            input: { command: 'sum=0; for n in $(seq 1 12); do sum=$((sum + n*n)); done; echo "Sum: $sum"' },
          },
        },
        {
          position: 0,
          block: {
            type: 'bash_code_execution_tool_result',
            tool_use_id: 'srvtoolu_013eUksWZnfcjFk1iarJsYgM',
            content: {
              type: 'bash_code_execution_result',
              stdout: 'Sum: 650\n',
              stderr: '',
              return_code: 0,
              content: [],
            },
          },
        },
      ]);
    });
  },
);

describe('scripted streams for what the recordings do not cover', () => {
  const turn = {
    content: [
      { type: 'thinking' as const, thinking: 'Plan: read the file, then answer.', signature: 'sig-abc/+=' },
      { type: 'redacted_thinking' as const, data: 'EncryptedOpaqueData==' },
      { type: 'text' as const, text: 'Reading it. ünïcödé 😀' },
      { type: 'tool_call' as const, id: 'toolu_01', name: 'read', input: { path: 'a.txt', lines: [1, 2] } },
    ],
    usage: { input: 2000, output: 40, cacheRead: 1500, cacheWrite: 100, reasoning: 12 },
    chunking: { textDelta: 3, argumentsDelta: 5 },
  };

  it('assembles thinking with signature, redacted thinking, text and a tool call, with cache and reasoning usage', async () => {
    mock.setScript({ steps: [turn] });
    const events = await collect(provider());
    expectWellFormed(events);
    const response = await assembleMessage(events);
    expect(response.message.content).toEqual([
      { type: 'thinking', thinking: 'Plan: read the file, then answer.', signature: 'sig-abc/+=' },
      { type: 'redacted_thinking', data: 'EncryptedOpaqueData==' },
      { type: 'text', text: 'Reading it. ünïcödé 😀' },
      { type: 'tool_use', id: 'toolu_01', name: 'read', input: { path: 'a.txt', lines: [1, 2] } },
    ]);
    expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
    expect(response.usage).toEqual({
      input: { total: 2000, noCache: 400, cacheRead: 1500, cacheWrite: 100 },
      output: { total: 40, text: 28, reasoning: 12 },
    });
  });

  it('createMessage and streamMessage assemble the same message for the same turn', async () => {
    mock.setScript({ steps: [turn, turn] });
    mock.clearRequests();
    const streamed = await assembleMessage(await collect(provider()));
    const created = await provider().createMessage(helloRequest);
    expect(created.message).toEqual(streamed.message);
    expect(created.finishReason).toEqual(streamed.finishReason);
    expect(created.usage).toEqual(streamed.usage);
    expect(mock.requests.map((request) => (request.body as { stream?: boolean }).stream)).toEqual([true, false]);
  });

  it.each([
    [{ stopReason: 'max_tokens' as const }, { unified: 'length', raw: 'max_tokens' }],
    [{ stopReason: 'pause_turn' as const }, { unified: 'pause', raw: 'pause_turn' }],
    [{ stopReason: 'stop_sequence' as const }, { unified: 'stop', raw: 'stop_sequence' }],
    [{ stopReason: 'content_filter' as const }, { unified: 'refusal', raw: 'refusal' }],
    [{ rawStopReason: 'model_context_window_exceeded' }, { unified: 'length', raw: 'model_context_window_exceeded' }],
    [{ rawStopReason: 'stop_reason_from_2030' }, { unified: 'other', raw: 'stop_reason_from_2030' }],
  ])('maps the stop of %j to %j in both paths', async (stop, finish) => {
    mock.setScript({
      steps: [
        { text: 'Partial', ...stop },
        { text: 'Partial', ...stop },
      ],
    });
    const streamed = await assembleMessage(await collect(provider(), { ...helloRequest, stopSequences: ['END'] }));
    const created = await provider().createMessage({ ...helloRequest, stopSequences: ['END'] });
    expect(streamed.finishReason).toEqual(finish);
    expect(created.finishReason).toEqual(finish);
    if (finish.raw === 'stop_sequence')
      expect(streamed.message.providerMetadata).toEqual({ anthropic: { stopSequence: 'END' } });
  });

  it('sends the key as x-api-key with anthropic-version, and no Bearer header, by default', async () => {
    mock.setScript({ steps: [{ text: 'Hi' }] });
    mock.clearRequests();
    await collect(provider());
    const headers = mock.requests[0]?.headers ?? {};
    expect(headers['x-api-key']).toBe('***6789');
    expect(headers.authorization).toBeUndefined();
    expect(headers['anthropic-version']).toBe('2023-06-01');
    expect(mock.requests[0]?.path).toBe('/v1/messages');
  });

  it('lists models from GET /v1/models', async () => {
    const models = await provider().listModels();
    expect(models).toEqual([{ id: 'mock-model', name: 'mock-model', createdAt: '2026-01-01T00:00:00.000Z' }]);
  });
});
