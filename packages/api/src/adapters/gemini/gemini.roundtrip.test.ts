import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import type { Message } from '../../spec/message.js';
import type { LlmRequest } from '../../spec/request.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../../test/fixtures.js';
import { SKIP_THOUGHT_SIGNATURE } from './gemini-messages.js';
import { createGeminiProvider } from './gemini-provider.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  mock.clearRequests();
});

const tools = [
  {
    name: 'read',
    description: 'Read a file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
];

function provider() {
  return createGeminiProvider({ baseURL: `${mock.url}/v1beta`, apiKey: 'gemini-test-key-0123456789' });
}

function sentBody(index: number): Record<string, unknown> {
  return mock.requests[index]?.body as Record<string, unknown>;
}

describe('a conversation with thinking and tool calls, sent back on the next turn', () => {
  it('replays thought parts, signatures and function-call ids exactly, and answers by name and id', async () => {
    mock.setScript({
      steps: [
        {
          content: [
            { type: 'thinking', thinking: 'I should read the file.', signature: 'sig-think' },
            { type: 'text', text: 'Let me read it.' },
            { type: 'tool_call', id: 'fc-1', name: 'read', input: { path: 'config.toml' } },
          ],
        },
        { text: 'The port is 8000.' },
      ],
    });
    const system = [
      { type: 'text' as const, text: 'You are a careful agent.' },
      { type: 'cache-boundary' as const },
      { type: 'text' as const, text: 'Today is Monday.' },
    ];
    const first: LlmRequest = {
      model: 'gemini-3-pro-preview',
      system,
      messages: [{ role: 'user', content: 'What port?' }],
      tools,
      thinking: { type: 'effort', effort: 'high' },
    };
    const turn = await assembleMessage(provider().streamMessage(first));
    const call = turn.message.content.find((block) => block.type === 'tool_use');
    expect(call).toMatchObject({ id: 'fc-1', name: 'read', input: { path: 'config.toml' } });

    const history: Message[] = [
      ...first.messages,
      turn.message,
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'fc-1', content: 'port = 8000' }] },
    ];
    const second = await assembleMessage(provider().streamMessage({ ...first, messages: history }));
    expect(second.message.content).toEqual([{ type: 'text', text: 'The port is 8000.' }]);

    const body = sentBody(1);
    expect(body.systemInstruction).toEqual({
      parts: [{ text: 'You are a careful agent.' }, { text: 'Today is Monday.' }],
    });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'What port?' }] },
      {
        role: 'model',
        parts: [
          { text: 'I should read the file.', thought: true, thoughtSignature: 'sig-think' },
          { text: 'Let me read it.' },
          // The mock puts no signature on this call, so a Gemini 3 request gets the documented stand-in.
          {
            functionCall: { id: 'fc-1', name: 'read', args: { path: 'config.toml' } },
            thoughtSignature: SKIP_THOUGHT_SIGNATURE,
          },
        ],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'fc-1', name: 'read', response: { output: 'port = 8000' } } }],
      },
    ]);
    expect(body.generationConfig).toEqual({ thinkingConfig: { thinkingLevel: 'high', includeThoughts: true } });
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'read',
            description: 'Read a file',
            parameters: { type: 'OBJECT', properties: { path: { type: 'STRING' } }, required: ['path'] },
          },
        ],
      },
    ]);
  });

  it('does not send ids it generated, and keeps the signature on the function call part', async () => {
    mock.setScript({
      steps: [
        { content: [{ type: 'tool_call', name: 'read', input: { path: 'a' } }], fault: { kind: 'missing_tool_ids' } },
        { text: 'ok' },
      ],
    });
    const request: LlmRequest = { model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Read a' }], tools };
    const turn = await assembleMessage(provider().streamMessage(request));
    const call = turn.message.content[0];
    if (call?.type !== 'tool_use') throw new Error('expected a tool call');
    expect(call.id).toMatch(/^call_[a-z0-9]+_0$/);
    await assembleMessage(
      provider().streamMessage({
        ...request,
        messages: [
          ...request.messages,
          turn.message,
          {
            role: 'user',
            content: [
              { type: 'tool_result', toolUseId: call.id, content: 'denied', isError: true },
              { type: 'text', text: 'Try again.' },
            ],
          },
        ],
      }),
    );
    const contents = sentBody(1).contents as unknown[];
    expect(contents.slice(1)).toEqual([
      { role: 'model', parts: [{ functionCall: { name: 'read', args: { path: 'a' } } }] },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'read', response: { error: 'denied' } } }, { text: 'Try again.' }],
      },
    ]);
  });
});

describe.skipIf(!providerStreamsDir)(
  `a recorded Gemini 3 call sent back ${providerStreamsDir ? '' : fixturesSkipReason}`,
  () => {
    it('google-tool-call-gemini3.chunks.txt: the call goes back with its own thoughtSignature', async () => {
      mock.setScript({
        steps: [{ replay: fixture('google-gemini/google-tool-call-gemini3.chunks.txt') }, { text: 'Sunny.' }],
      });
      const request: LlmRequest = {
        model: 'gemini-3-pro-preview',
        messages: [{ role: 'user', content: 'Weather in SF?' }],
        tools: [
          {
            name: 'weather',
            description: 'Weather',
            inputSchema: { type: 'object', properties: { location: { type: 'string' } } },
          },
        ],
      };
      const turn = await assembleMessage(provider().streamMessage(request));
      const call = turn.message.content[0];
      if (call?.type !== 'tool_use') throw new Error('expected a tool call');
      const signature = call.providerMetadata?.gemini?.thoughtSignature;
      expect(typeof signature).toBe('string');
      expect(String(signature).startsWith('EpEgCo4gAb4+9vvWwdN+NkNiCCwrqvFI8uf9')).toBe(true);
      await assembleMessage(
        provider().streamMessage({
          ...request,
          messages: [
            ...request.messages,
            turn.message,
            { role: 'user', content: [{ type: 'tool_result', toolUseId: call.id, content: '18°C, sunny' }] },
          ],
        }),
      );
      const contents = sentBody(1).contents as unknown[];
      expect(contents[1]).toEqual({
        role: 'model',
        parts: [
          { functionCall: { name: 'weather', args: { location: 'San Francisco' } }, thoughtSignature: signature },
        ],
      });
      expect(contents[2]).toEqual({
        role: 'user',
        parts: [{ functionResponse: { name: 'weather', response: { output: '18°C, sunny' } } }],
      });
    });

    it('google-text.chunks.txt: the text goes back with the signature its last chunk carried', async () => {
      mock.setScript({ steps: [{ replay: fixture('google-gemini/google-text.chunks.txt') }, { text: 'ok' }] });
      const request: LlmRequest = { model: 'gemini-3-pro-preview', messages: [{ role: 'user', content: 'Count rs' }] };
      const turn = await assembleMessage(provider().streamMessage(request));
      await assembleMessage(
        provider().streamMessage({
          ...request,
          messages: [...request.messages, turn.message, { role: 'user', content: 'Thanks' }],
        }),
      );
      const contents = sentBody(1).contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>;
      expect(contents[1]?.parts).toHaveLength(1);
      expect(contents[1]?.parts[0]?.text).toBe('There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y');
      expect(String(contents[1]?.parts[0]?.thoughtSignature).startsWith('EqsFCqgFAb4+9vvtAF5n87lB4OGD')).toBe(true);
    });
  },
);
