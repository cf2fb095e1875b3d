import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../../spec/message.js';
import { convertToAnthropicMessages, readServerBlocks } from './anthropic-messages.js';
import type { AnthropicMessageParam } from './anthropic-wire.js';

/** The content blocks of a converted message, as plain records. */
function blocksOf(message: AnthropicMessageParam | undefined): Array<Record<string, unknown>> {
  if (message === undefined || typeof message.content === 'string') throw new Error('expected content blocks');
  return message.content as unknown as Array<Record<string, unknown>>;
}

const PDF = Buffer.from('%PDF-1.4 test').toString('base64');

describe('convertToAnthropicMessages', () => {
  it('hoists system messages, merges consecutive turns and drops empty text', () => {
    const messages: Message[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'One' },
      {
        role: 'user',
        content: [
          { type: 'text', text: '' },
          { type: 'text', text: 'Two' },
        ],
      },
      {
        role: 'system',
        content: [
          { type: 'text', text: 'Late' },
          { type: 'text', text: 'rule' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: '' }] },
      { role: 'user', content: '' },
    ];
    expect(convertToAnthropicMessages(messages)).toEqual({
      systemTexts: ['Be brief.', 'Late\n\nrule'],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'One' },
            { type: 'text', text: 'Two' },
          ],
        },
      ],
    });
  });

  it('puts tool results first in a user turn, with error flags, text and images', () => {
    const { messages } = convertToAnthropicMessages([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Here are the results.' },
          { type: 'tool_result', toolUseId: 'a', content: 'boom', isError: true },
          {
            type: 'tool_result',
            toolUseId: 'b',
            content: [{ type: 'image', source: { type: 'url', url: 'https://x/y.png' } }],
          },
          { type: 'tool_result', toolUseId: 'c', content: '' },
        ],
      },
    ]);
    expect(messages[0]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: 'boom', is_error: true },
      {
        type: 'tool_result',
        tool_use_id: 'b',
        content: [{ type: 'image', source: { type: 'url', url: 'https://x/y.png' } }],
      },
      { type: 'tool_result', tool_use_id: 'c' },
      { type: 'text', text: 'Here are the results.' },
    ]);
  });

  it('sends images and documents as base64, URL and plain-text sources', () => {
    const { messages } = convertToAnthropicMessages([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', mediaType: 'image/jpeg', data: 'AAAA' } },
          { type: 'document', source: { type: 'base64', mediaType: 'application/pdf', data: PDF }, title: 'Spec' },
          { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
          {
            type: 'document',
            source: { type: 'base64', mediaType: 'text/plain', data: Buffer.from('héllo').toString('base64') },
          },
        ],
      },
    ]);
    expect(messages[0]?.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAA' } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'Spec' },
      { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'héllo' } },
    ]);
  });

  const assistant: AssistantMessage = {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'signed', signature: 'sig' },
      { type: 'thinking', thinking: 'unsigned' },
      { type: 'thinking', thinking: 'ours, unsigned', providerMetadata: { anthropic: { note: 1 } } },
      { type: 'thinking', thinking: 'from gemini', providerMetadata: { gemini: { thoughtSignature: 'g' } } },
      { type: 'redacted_thinking', data: 'opaque' },
      {
        type: 'redacted_thinking',
        data: 'encrypted elsewhere',
        providerMetadata: { 'openai-responses': { id: 'rs_1' } },
      },
      { type: 'tool_use', id: 'call:1', name: 'read', input: {} },
    ],
  };

  it('replays signed thinking and redacted thinking, leaving out foreign and unsigned thinking', () => {
    const { messages } = convertToAnthropicMessages([assistant]);
    expect(messages[0]?.content).toEqual([
      { type: 'thinking', thinking: 'signed', signature: 'sig' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'tool_use', id: expect.stringMatching(/^call_1_[a-zA-Z0-9]+$/), name: 'read', input: {} },
    ]);
  });

  it('sends unsigned thinking of this protocol when replayUnsignedThinking is set', () => {
    const { messages } = convertToAnthropicMessages([assistant], { replayUnsignedThinking: true });
    const thinking = blocksOf(messages[0]).filter((block) => block.type === 'thinking');
    expect(thinking.map((block) => block.thinking)).toEqual(['signed', 'unsigned', 'ours, unsigned']);
  });

  it('maps a tool call id and its result id the same way', () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'assistant', content: [{ type: 'tool_use', id: 'fc.1/x', name: 'a', input: { k: 1 } }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'fc.1/x', content: 'ok' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_valid-ID_1', name: 'a', input: {} }] },
    ]);
    const useId = blocksOf(messages[0])[0]?.id;
    const resultId = blocksOf(messages[1])[0]?.tool_use_id;
    expect(useId).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(resultId).toBe(useId);
    expect(blocksOf(messages[2])[0]?.id).toBe('toolu_valid-ID_1');
  });

  it('puts server blocks back at their positions, including after the last block', () => {
    const { messages } = convertToAnthropicMessages([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'A' },
          { type: 'text', text: 'B' },
        ],
        providerMetadata: {
          anthropic: {
            serverBlocks: [
              { position: 0, block: { type: 'server_tool_use', id: 's1', name: 'web_search', input: {} } },
              { position: 1, block: { type: 'web_search_tool_result', tool_use_id: 's1', content: [] } },
              { position: 2, block: { type: 'server_tool_use', id: 's2', name: 'web_search', input: {} } },
            ],
          },
        },
      },
    ]);
    expect(blocksOf(messages[0]).map((block) => block.type)).toEqual([
      'server_tool_use',
      'text',
      'web_search_tool_result',
      'text',
      'server_tool_use',
    ]);
  });
});

describe('readServerBlocks', () => {
  it('keeps only well-formed entries of our own key', () => {
    expect(
      readServerBlocks({
        anthropic: {
          serverBlocks: [
            { position: 0, block: { type: 'x' } },
            { position: 'a', block: {} },
            null,
            { position: 1, block: { id: 1 } },
          ],
        },
        gemini: { serverBlocks: [{ position: 0, block: { type: 'y' } }] },
      }),
    ).toEqual([{ position: 0, block: { type: 'x' } }]);
    expect(readServerBlocks(undefined)).toEqual([]);
    expect(readServerBlocks({ anthropic: { serverBlocks: 'no' } })).toEqual([]);
  });
});
