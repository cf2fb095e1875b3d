import { describe, expect, it } from 'vitest';
import { messageSearchText } from './message-text.js';

describe('messageSearchText', () => {
  it('keeps text and tool results, and leaves out tool inputs, thinking and media', () => {
    expect(messageSearchText({ content: 'plain' })).toBe('plain');
    expect(
      messageSearchText({
        content: [
          { type: 'thinking', thinking: 'secret plan' },
          { type: 'text', text: 'visible' },
          { type: 'tool_use', id: 't', name: 'bash', input: { command: 'rm' } },
        ],
      } as never),
    ).toBe('visible');
    expect(
      messageSearchText({
        content: [
          {
            type: 'tool_result',
            toolUseId: 't',
            content: [
              { type: 'text', text: 'result text' },
              { type: 'image', source: { type: 'url', url: 'u' } },
            ],
          },
          { type: 'tool_result', toolUseId: 'u', content: 'second' },
          { type: 'image', source: { type: 'url', url: 'http://x' } },
        ],
      }),
    ).toBe('result text\nsecond');
  });
});
