import { describe, expect, it } from 'vitest';
import type { Message } from '../../spec/message.js';
import { convertToBedrockPrompt, documentName } from './bedrock-messages.js';

const PNG = 'iVBORw0KGgo=';
const PDF = 'JVBERi0xLjQ=';

describe('convertToBedrockPrompt', () => {
  it('puts the system prompt and system messages in system, with a cache point at the boundary', () => {
    const prompt = convertToBedrockPrompt(
      [{ type: 'text', text: 'Stable.' }, { type: 'cache-boundary' }, { type: 'text', text: 'Today.' }],
      [
        { role: 'system', content: 'Also this.' },
        { role: 'user', content: 'hi' },
      ],
      { cacheMarkers: true },
    );
    expect(prompt.system).toEqual([
      { text: 'Stable.' },
      { cachePoint: { type: 'default' } },
      { text: 'Today.' },
      { text: 'Also this.' },
    ]);
    expect(prompt.messages).toEqual([{ role: 'user', content: [{ text: 'hi' }] }]);
  });

  it('sends no cache point when markers are off', () => {
    const prompt = convertToBedrockPrompt([{ type: 'text', text: 'A' }, { type: 'cache-boundary' }], [], {
      cacheMarkers: false,
    });
    expect(prompt.system).toEqual([{ text: 'A' }]);
  });

  it('converts images and documents, and notes what Converse cannot take', () => {
    const prompt = convertToBedrockPrompt(
      undefined,
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look:' },
            { type: 'text', text: '   ' },
            { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: PNG } },
            { type: 'image', source: { type: 'url', url: 's3://bucket/cat.jpeg' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
            { type: 'image', source: { type: 'base64', mediaType: 'image/tiff', data: 'AAAA' } },
            {
              type: 'document',
              title: 'Q3 report: final!',
              source: { type: 'base64', mediaType: 'application/pdf', data: PDF },
            },
            { type: 'document', source: { type: 'base64', mediaType: 'application/pdf', data: PDF } },
            { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
          ],
        },
      ],
      { cacheMarkers: false },
    );
    expect(prompt.messages[0]?.content).toEqual([
      { text: 'Look:' },
      { image: { format: 'png', source: { bytes: PNG } } },
      { image: { format: 'jpeg', source: { s3Location: { uri: 's3://bucket/cat.jpeg' } } } },
      { text: '[image https://example.com/cat.png omitted: Bedrock Converse takes images as bytes or S3 locations]' },
      { text: '[image of type image/tiff omitted: Bedrock Converse takes PNG, JPEG, GIF and WebP]' },
      { document: { format: 'pdf', name: 'Q3 report final', source: { bytes: PDF } } },
      { document: { format: 'pdf', name: 'document 2', source: { bytes: PDF } } },
      {
        text: '[document https://example.com/a.pdf omitted: Bedrock Converse takes documents as bytes or S3 locations]',
      },
    ]);
  });

  it('replays signed thinking and redacted thinking, and drops unsigned thinking and blank text', () => {
    const prompt = convertToBedrockPrompt(
      undefined,
      [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'signed', signature: 'sig==' },
            { type: 'thinking', thinking: 'from another vendor' },
            { type: 'redacted_thinking', data: 'b64==' },
            { type: 'text', text: '' },
            { type: 'text', text: 'answer' },
          ],
        },
      ],
      { cacheMarkers: false },
    );
    expect(prompt.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { reasoningContent: { reasoningText: { text: 'signed', signature: 'sig==' } } },
        { reasoningContent: { redactedContent: 'b64==' } },
        { text: 'answer' },
      ],
    });
  });

  it('merges consecutive turns of one role, tool results first, and lists the tools the history calls', () => {
    const messages: Message[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'read', input: { path: 'a' } }] },
      { role: 'user', content: 'by the way' },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'call_1', content: '' },
          {
            type: 'tool_result',
            toolUseId: 'call_1',
            content: [
              { type: 'text', text: 'see image' },
              { type: 'image', source: { type: 'base64', mediaType: 'image/webp', data: 'UklG' } },
            ],
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'x' }] },
    ];
    const prompt = convertToBedrockPrompt(undefined, messages, { cacheMarkers: false });
    expect(prompt.toolNamesInHistory).toEqual(['read']);
    expect(prompt.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(prompt.messages[2]?.content).toEqual([
      { toolResult: { toolUseId: 'call_1', content: [{ text: '(no output)' }], status: 'success' } },
      {
        toolResult: {
          toolUseId: 'call_1',
          content: [{ text: 'see image' }, { image: { format: 'webp', source: { bytes: 'UklG' } } }],
          status: 'success',
        },
      },
      { text: 'by the way' },
    ]);
  });
});

describe('documentName', () => {
  it('keeps allowed characters, single spaces, at most 200 characters, unique per request', () => {
    const used = new Set<string>();
    expect(documentName('a/b  c_(d)[e]', used)).toBe('a b c (d)[e]');
    expect(documentName('a/b  c_(d)[e]', used)).toBe('a b c (d)[e] (2)');
    expect(documentName('x'.repeat(300), used)).toHaveLength(190);
    expect(documentName(undefined, used)).toBe('document 4');
  });
});
