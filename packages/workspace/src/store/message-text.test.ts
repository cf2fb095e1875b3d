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

  it('keeps the text fields of documents and transcript blocks', () => {
    expect(
      messageSearchText({
        content: [
          { type: 'document', source: { type: 'url', url: 'u' }, title: 'Title', context: 'Context' },
          { type: 'user_local_command_output', command: 'ls', output: 'a.txt' },
          { type: 'user_command', name: 'review', args: '' },
          { type: 'user_memory_input', key: 'k', value: 'v' },
          { type: 'system_api_error', message: 'busy' },
          { type: 'collapsed_read_search', toolName: 'read', paths: ['x.ts', 'y.ts'] },
          { type: 'task_assignment', id: '1', subject: 'S', description: 'D' },
        ],
      }),
    ).toBe('Title\nContext\nls\na.txt\n/review\nk\nv\nbusy\nread\nx.ts\ny.ts\nS\nD');
  });
});
