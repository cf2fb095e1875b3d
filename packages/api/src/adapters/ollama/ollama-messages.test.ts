import { describe, expect, it } from 'vitest';
import type { Message } from '../../spec/message.js';
import { convertToOllamaMessages, ollamaMetadata } from './ollama-messages.js';

describe('convertToOllamaMessages', () => {
  it('puts the system prompt first and keeps system messages in place', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Hi' },
      {
        role: 'system',
        content: [
          { type: 'text', text: 'Be brief.' },
          { type: 'text', text: '' },
        ],
      },
    ];
    expect(convertToOllamaMessages(messages, 'Role.')).toEqual([
      { role: 'system', content: 'Role.' },
      { role: 'user', content: 'Hi' },
      { role: 'system', content: 'Be brief.' },
    ]);
  });

  it('sends base64 and data-URL images inline and notes what Ollama cannot take', () => {
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image', source: { type: 'base64', data: 'AAA=', mediaType: 'image/png' } },
          { type: 'image', source: { type: 'url', url: 'data:image/jpeg;base64,BBB=' } },
          { type: 'image', source: { type: 'url', url: 'https://example.test/cat.png' } },
          { type: 'document', source: { type: 'base64', data: 'JVBE', mediaType: 'application/pdf' }, title: 'Spec' },
        ],
      },
    ];
    expect(convertToOllamaMessages(messages, undefined)).toEqual([
      {
        role: 'user',
        content:
          'Look\n\n[An image at https://example.test/cat.png was attached, but Ollama accepts only inline images.]\n\n[A document ("Spec") was attached, but Ollama accepts no documents.]',
        images: ['AAA=', 'BBB='],
      },
    ]);
  });

  it('replays reasoning in thinking and drops empty assistant turns', () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'First.' },
          { type: 'redacted_thinking', data: 'x' },
          { type: 'thinking', thinking: 'Second.' },
          { type: 'text', text: 'Answer' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: '' }] },
    ];
    expect(convertToOllamaMessages(messages, undefined)).toEqual([
      { role: 'assistant', content: 'Answer', thinking: 'First.\n\nSecond.' },
    ]);
  });

  it('sends tool results with images on the tool message, before the text of the same turn', () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'c1', name: 'shot', input: {}, providerMetadata: { ollama: { toolCallId: 'o1' } } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Here.' },
          {
            type: 'tool_result',
            toolUseId: 'c1',
            content: [
              { type: 'text', text: 'Took it' },
              { type: 'image', source: { type: 'base64', data: 'IMG=', mediaType: 'image/png' } },
            ],
          },
          { type: 'tool_result', toolUseId: 'lost', content: 'orphan' },
        ],
      },
    ];
    expect(convertToOllamaMessages(messages, undefined).slice(1)).toEqual([
      { role: 'tool', content: 'Took it', tool_name: 'shot', tool_call_id: 'o1', images: ['IMG='] },
      { role: 'tool', content: 'orphan', tool_name: 'lost' },
      { role: 'user', content: 'Here.' },
    ]);
  });
});

describe('ollamaMetadata', () => {
  it('reads only its own string id', () => {
    expect(ollamaMetadata({ providerMetadata: { ollama: { toolCallId: 'a' } } })).toEqual({ toolCallId: 'a' });
    expect(ollamaMetadata({ providerMetadata: { gemini: { toolCallId: 'a' } } })).toEqual({});
  });
});
