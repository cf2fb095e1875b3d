import { describe, expect, it } from 'vitest';
import { systemPromptSegments, systemPromptText } from './system-prompt.js';

describe('systemPromptSegments', () => {
  it('marks the segment before the cache boundary', () => {
    expect(
      systemPromptSegments([
        { type: 'text', text: 'Role' },
        { type: 'text', text: 'Tools' },
        { type: 'cache-boundary' },
        { type: 'text', text: 'Date' },
      ]),
    ).toEqual([
      { text: 'Role', cacheBreakpoint: false },
      { text: 'Tools', cacheBreakpoint: true },
      { text: 'Date', cacheBreakpoint: false },
    ]);
  });

  it('handles strings, empty parts and a boundary with nothing before it', () => {
    expect(systemPromptSegments('Be brief.')).toEqual([{ text: 'Be brief.', cacheBreakpoint: false }]);
    expect(systemPromptSegments(undefined)).toEqual([]);
    expect(systemPromptSegments('')).toEqual([]);
    expect(
      systemPromptSegments([{ type: 'cache-boundary' }, { type: 'text', text: '' }, { type: 'text', text: 'x' }]),
    ).toEqual([{ text: 'x', cacheBreakpoint: false }]);
  });
});

describe('systemPromptText', () => {
  it('joins segments with a blank line, dropping the marker', () => {
    expect(
      systemPromptText([{ type: 'text', text: 'A' }, { type: 'cache-boundary' }, { type: 'text', text: 'B' }]),
    ).toBe('A\n\nB');
    expect(
      systemPromptText(
        [
          { type: 'text', text: 'A' },
          { type: 'text', text: 'B' },
        ],
        '\n',
      ),
    ).toBe('A\nB');
  });
});
