import { describe, expect, it } from 'vitest';
import { mapCallToolResult } from './map-call-tool-result.js';
import { mapMcpContent, mapResourceContents } from './map-mcp-content.js';

const origin = { server: 'srv', tool: 'tool' };

describe('mapMcpContent', () => {
  it('keeps text and images', () => {
    expect(mapMcpContent({ type: 'text', text: 'hi' })).toEqual([{ type: 'text', text: 'hi' }]);
    expect(mapMcpContent({ type: 'image', data: 'AAAA', mimeType: 'image/png' })).toEqual([
      { type: 'image', source: { type: 'base64', data: 'AAAA', mediaType: 'image/png' } },
    ]);
  });

  it('turns audio into a note with type and size', () => {
    const [block] = mapMcpContent({ type: 'audio', data: Buffer.alloc(30).toString('base64'), mimeType: 'audio/wav' });
    expect(block).toEqual({ type: 'text', text: expect.stringContaining('audio/wav, 30 bytes') });
  });

  it('shows resource links with URI and description', () => {
    const [block] = mapMcpContent({
      type: 'resource_link',
      uri: 'file:///a.txt',
      name: 'a.txt',
      mimeType: 'text/plain',
      description: 'A file',
    });
    expect(block).toEqual({ type: 'text', text: 'Resource link: a.txt <file:///a.txt> (text/plain, A file)' });
  });

  it('notes unknown content types instead of dropping them silently', () => {
    expect(mapMcpContent({ type: 'hologram' })).toEqual([
      { type: 'text', text: '[content of type "hologram" is not supported and was left out]' },
    ]);
  });
});

describe('mapResourceContents', () => {
  it('heads text with the URI', () => {
    expect(mapResourceContents({ uri: 'mem://a', mimeType: 'text/plain', text: 'body' })).toEqual([
      { type: 'text', text: 'Resource mem://a (text/plain):\nbody' },
    ]);
  });

  it('decodes base64 of textual types', () => {
    const blob = Buffer.from('{"a":1}').toString('base64');
    expect(mapResourceContents({ uri: 'mem://j', mimeType: 'application/json', blob })).toEqual([
      { type: 'text', text: 'Resource mem://j (application/json):\n{"a":1}' },
    ]);
  });

  it('returns images as image blocks and other bytes as a size note', () => {
    const image = mapResourceContents({ uri: 'mem://i', mimeType: 'image/PNG', blob: 'AAAA' });
    expect(image[1]).toEqual({ type: 'image', source: { type: 'base64', data: 'AAAA', mediaType: 'image/png' } });
    const binary = mapResourceContents({ uri: 'mem://b', mimeType: 'application/zip', blob: 'AAAAAA==' });
    expect(binary).toEqual([
      { type: 'text', text: 'Resource mem://b (application/zip): binary data, 4 bytes (not shown).' },
    ]);
  });
});

describe('mapCallToolResult', () => {
  it('propagates isError and names the origin', () => {
    const result = mapCallToolResult({ content: [{ type: 'text', text: 'bad' }], isError: true }, origin);
    expect(result).toEqual({
      content: [{ type: 'text', text: 'bad' }],
      isError: true,
      metadata: { mcpServer: 'srv', mcpTool: 'tool' },
    });
  });

  it('puts structuredContent in metadata and shows it when there is no content', () => {
    const result = mapCallToolResult({ content: [], structuredContent: { temperature: 20 } }, origin);
    expect(result.metadata?.structuredContent).toEqual({ temperature: 20 });
    expect(result.content).toEqual([{ type: 'text', text: '{"temperature":20}' }]);
    expect(result.isError).toBeUndefined();
  });

  it('never returns empty content', () => {
    expect(mapCallToolResult({ content: [] }, origin).content).toEqual([{ type: 'text', text: '(no output)' }]);
    expect(mapCallToolResult({ isError: true }, origin).content).toEqual([
      { type: 'text', text: 'The tool failed without a message.' },
    ]);
  });
});
