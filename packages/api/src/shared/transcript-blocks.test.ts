import { describe, expect, it } from 'vitest';
import type { DocumentBlock, TranscriptBlock, UserContentBlock } from '../spec/message.js';
import { isTranscriptBlock, toProviderUserContent, transcriptBlockToText } from './transcript-blocks.js';

const blocks: TranscriptBlock[] = [
  { type: 'user_local_command_output', command: 'ls -la', output: 'total 0\n.\n..' },
  { type: 'user_command', name: 'review', args: 'src --strict' },
  { type: 'user_memory_input', key: 'style', value: 'tabs, never spaces' },
  { type: 'system_api_error', message: 'overloaded', retrySecs: 5 },
  { type: 'collapsed_read_search', toolName: 'grep', paths: ['src/a.ts', 'src/b.ts'] },
  { type: 'task_assignment', id: 'T-7', subject: 'Fix the parser', description: 'Lines over 1 MB crash it.' },
];

describe('transcriptBlockToText', () => {
  it('gives every field of the kept kinds to the model and leaves the UI-only kinds out', () => {
    expect(blocks.map((block) => transcriptBlockToText(block))).toEqual([
      'The user ran a local command: ls -la\nIts output:\ntotal 0\n.\n..',
      'The user invoked the command /review src --strict',
      'The user asked you to remember: style: tabs, never spaces',
      undefined,
      undefined,
      'Task T-7 is assigned to you: Fix the parser\n\nLines over 1 MB crash it.',
    ]);
  });

  it('writes a command without arguments without a trailing space', () => {
    expect(transcriptBlockToText({ type: 'user_command', name: 'clear', args: '' })).toBe(
      'The user invoked the command /clear',
    );
  });
});

describe('isTranscriptBlock', () => {
  it('knows the six kinds and nothing else', () => {
    expect(blocks.every(isTranscriptBlock)).toBe(true);
    for (const type of ['text', 'image', 'document', 'tool_result', 'tool_use', 'thinking', '__proto__', 'toString']) {
      expect(isTranscriptBlock({ type })).toBe(false);
    }
  });
});

describe('toProviderUserContent', () => {
  const document: DocumentBlock = {
    type: 'document',
    title: 'Spec',
    context: 'The 2024 revision; section 3 is obsolete.',
    source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' },
  };

  it('returns content without transcript blocks or contexts as the same array', () => {
    const content: UserContentBlock[] = [
      { type: 'text', text: 'hi' },
      { ...document, context: undefined },
    ];
    expect(toProviderUserContent(content, { documentContextAsText: true })).toBe(content);
    expect(toProviderUserContent([document])).toEqual([document]);
  });

  it('turns transcript blocks into text in place, dropping the omitted kinds', () => {
    const converted = toProviderUserContent([
      { type: 'text', text: 'before' },
      ...blocks,
      { type: 'text', text: 'after' },
    ]);
    expect(converted.map((block) => block.type)).toEqual(['text', 'text', 'text', 'text', 'text', 'text']);
    expect(converted[0]).toEqual({ type: 'text', text: 'before' });
    expect(converted[5]).toEqual({ type: 'text', text: 'after' });
  });

  it('puts a document context into a text part just before the document when asked', () => {
    expect(toProviderUserContent([document], { documentContextAsText: true })).toEqual([
      { type: 'text', text: 'About the next document "Spec": The 2024 revision; section 3 is obsolete.' },
      document,
    ]);
  });
});
