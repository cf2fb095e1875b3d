import { describe, expect, it } from 'vitest';
import { convertToCohereMessages } from './cohere-messages.js';

describe('convertToCohereMessages', () => {
  it('joins the system prompt and system messages into one leading system message', () => {
    expect(
      convertToCohereMessages('Be brief.', [
        { role: 'system', content: [{ type: 'text', text: 'Use metric units.' }] },
        { role: 'user', content: 'hi' },
        { role: 'user', content: '  ' },
      ]),
    ).toEqual([
      { role: 'system', content: 'Be brief.\n\nUse metric units.' },
      { role: 'user', content: 'hi' },
    ]);
    expect(convertToCohereMessages(undefined, [{ role: 'user', content: 'hi' }])).toEqual([
      { role: 'user', content: 'hi' },
    ]);
  });

  it('sends images as image_url (data URIs for bytes) and notes documents', () => {
    expect(
      convertToCohereMessages(undefined, [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
            { type: 'document', title: 'Spec', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBE' } },
          ],
        },
      ]),
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
          { type: 'text', text: '[document "Spec" omitted: Cohere chat takes no document files]' },
        ],
      },
    ]);
  });

  it('sends each tool result as a tool message before the rest of the turn, errors and images in words', () => {
    expect(
      convertToCohereMessages(undefined, [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'and then?' },
            { type: 'tool_result', toolUseId: 'c1', content: 'file not found', isError: true },
            {
              type: 'tool_result',
              toolUseId: 'c2',
              content: [
                { type: 'text', text: 'a chart' },
                { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'AA' } },
              ],
            },
            { type: 'tool_result', toolUseId: 'c3', content: '' },
          ],
        },
      ]),
    ).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'Error: file not found' }] },
      {
        role: 'tool',
        tool_call_id: 'c2',
        content: [{ type: 'text', text: 'a chart\n[image omitted: Cohere tool results take text only]' }],
      },
      { role: 'tool', tool_call_id: 'c3', content: [{ type: 'text', text: '(no output)' }] },
      { role: 'user', content: [{ type: 'text', text: 'and then?' }] },
    ]);
  });

  it('replays an assistant turn: thinking as content, text as tool_plan beside tool calls, else as text', () => {
    expect(
      convertToCohereMessages(undefined, [
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'anthropic-only' },
            { type: 'redacted_thinking', data: 'x' },
            { type: 'text', text: 'Let me check.', providerMetadata: { cohere: { toolPlan: true } } },
            { type: 'tool_use', id: 'c1', name: 'read', input: { path: 'a' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'done' },
            { type: 'text', text: 'It says hi.' },
          ],
        },
        { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'only this' }] },
      ]),
    ).toEqual([
      {
        role: 'assistant',
        content: [{ type: 'thinking', thinking: 'hmm' }],
        tool_plan: 'Let me check.',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } }],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'done' },
          { type: 'text', text: 'It says hi.' },
        ],
      },
    ]);
  });
});
