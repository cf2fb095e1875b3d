import { describe, expect, it } from 'vitest';
import type { Message } from '../../spec/message.js';
import { convertToGeminiContents, geminiMetadata, SKIP_THOUGHT_SIGNATURE } from './gemini-messages.js';

const png = { type: 'base64' as const, data: 'iVBORw0KGgo=', mediaType: 'image/png' };

describe('convertToGeminiContents', () => {
  it('hoists the system prompt and system messages, drops empty text and empty turns', () => {
    const messages: Message[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: '' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Hi' },
          { type: 'text', text: '' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: '' }] },
    ];
    expect(convertToGeminiContents(messages, [{ type: 'text', text: 'Role.' }, { type: 'cache-boundary' }])).toEqual({
      systemInstruction: { parts: [{ text: 'Role.' }, { text: 'Be brief.' }] },
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
    });
  });

  it('sends images and PDFs as inlineData or fileData', () => {
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'image', source: png },
          { type: 'image', source: { type: 'url', url: 'https://example.test/cat.JPG?size=2' } },
          { type: 'image', source: { type: 'url', url: 'data:image/webp;base64,UklGRg==' } },
          {
            type: 'document',
            source: { type: 'base64', data: 'JVBERi0=', mediaType: 'application/pdf' },
            title: 'Spec',
          },
          { type: 'document', source: { type: 'url', url: 'https://example.test/spec' } },
          { type: 'image', source: { type: 'url', url: 'gs://bucket/object' } },
        ],
      },
    ];
    expect(convertToGeminiContents(messages, undefined).contents[0]?.parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
      { fileData: { fileUri: 'https://example.test/cat.JPG?size=2', mimeType: 'image/jpeg' } },
      { inlineData: { mimeType: 'image/webp', data: 'UklGRg==' } },
      { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
      { fileData: { fileUri: 'https://example.test/spec', mimeType: 'application/pdf' } },
      { fileData: { fileUri: 'gs://bucket/object' } },
    ]);
  });

  it('replays thinking, text and calls with their signatures, on the part type they came on', () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        content: [
          {
            type: 'thinking',
            thinking: 'Plan.',
            providerMetadata: { gemini: { thoughtSignature: 's1' }, anthropic: { x: 1 } },
          },
          { type: 'thinking', thinking: '', signature: 'anthropic-only' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: 'Hello', providerMetadata: { gemini: { thoughtSignature: 's2' } } },
          {
            type: 'tool_use',
            id: 'x',
            name: 'read',
            input: {},
            providerMetadata: { gemini: { thoughtSignature: 's3', functionCallId: 'fc9' } },
          },
        ],
      },
    ];
    expect(convertToGeminiContents(messages, undefined, { modelGeneration: 3 }).contents).toEqual([
      {
        role: 'model',
        parts: [
          { text: 'Plan.', thought: true, thoughtSignature: 's1' },
          { text: 'Hello', thoughtSignature: 's2' },
          { functionCall: { id: 'fc9', name: 'read', args: {} }, thoughtSignature: 's3' },
        ],
      },
    ]);
  });

  it('gives the first call of a Gemini 3 turn without signatures the documented stand-in, and only the first', () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'a', name: 'read', input: { path: 'a' } },
          { type: 'tool_use', id: 'b', name: 'read', input: { path: 'b' } },
        ],
      },
    ];
    const gemini3 = convertToGeminiContents(messages, undefined, { modelGeneration: 3 }).contents[0]?.parts;
    expect(gemini3).toEqual([
      { functionCall: { name: 'read', args: { path: 'a' } }, thoughtSignature: SKIP_THOUGHT_SIGNATURE },
      { functionCall: { name: 'read', args: { path: 'b' } } },
    ]);
    const gemini25 = convertToGeminiContents(messages, undefined, { modelGeneration: 2 }).contents[0]?.parts;
    expect(gemini25).toEqual([
      { functionCall: { name: 'read', args: { path: 'a' } } },
      { functionCall: { name: 'read', args: { path: 'b' } } },
    ]);
  });

  it('answers several calls in one user turn by name and Gemini id, errors under "error"', () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: 'call_a',
            name: 'read',
            input: {},
            providerMetadata: { gemini: { functionCallId: 'g1' } },
          },
          { type: 'tool_use', id: 'call_b', name: 'grep', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            toolUseId: 'call_a',
            content: [
              { type: 'text', text: 'one' },
              { type: 'text', text: 'two' },
            ],
          },
          { type: 'tool_result', toolUseId: 'call_b', content: 'no match', isError: true },
          { type: 'tool_result', toolUseId: 'unknown', content: 'orphan' },
        ],
      },
    ];
    expect(convertToGeminiContents(messages, undefined).contents[1]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'g1', name: 'read', response: { output: 'one\ntwo' } } },
        { functionResponse: { name: 'grep', response: { error: 'no match' } } },
        { functionResponse: { name: 'unknown', response: { output: 'orphan' } } },
      ],
    });
  });

  it('answers a reused generated id with the latest call of that id', () => {
    const call = (name: string): Message => ({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'call_0', name, input: {} }],
    });
    const result: Message = { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_0', content: 'ok' }] };
    const contents = convertToGeminiContents([call('first'), result, call('second'), result], undefined).contents;
    expect(contents[1]?.parts).toEqual([{ functionResponse: { name: 'first', response: { output: 'ok' } } }]);
    expect(contents[3]?.parts).toEqual([{ functionResponse: { name: 'second', response: { output: 'ok' } } }]);
  });

  it('puts tool-result images inside the response for Gemini 3, after it with a note for older models', () => {
    const messages: Message[] = [
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'screenshot', input: {} }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            toolUseId: 't',
            content: [
              { type: 'text', text: 'Done' },
              { type: 'image', source: png },
            ],
          },
        ],
      },
    ];
    expect(convertToGeminiContents(messages, undefined, { modelGeneration: 3 }).contents[1]?.parts).toEqual([
      {
        functionResponse: {
          name: 'screenshot',
          response: { output: 'Done' },
          parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=', displayName: 'image_1' } }],
        },
      },
    ]);
    expect(convertToGeminiContents(messages, undefined, { modelGeneration: 2 }).contents[1]?.parts).toEqual([
      {
        functionResponse: {
          name: 'screenshot',
          response: { output: 'Done\n[The tool returned 1 image(s); they follow this result as separate parts.]' },
        },
      },
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
    ]);
  });
});

describe('geminiMetadata', () => {
  it('reads only string values of its own key', () => {
    expect(geminiMetadata({ providerMetadata: { gemini: { thoughtSignature: 's', functionCallId: 3 } } })).toEqual({
      thoughtSignature: 's',
    });
    expect(geminiMetadata({ providerMetadata: { anthropic: { thoughtSignature: 's' } } })).toEqual({});
    expect(geminiMetadata({})).toEqual({});
  });
});
