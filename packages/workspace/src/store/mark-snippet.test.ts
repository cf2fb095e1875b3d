import { describe, expect, it } from 'vitest';
import { markSnippet } from './mark-snippet.js';

const marks = { start: '[', end: ']' };

describe('markSnippet', () => {
  it('marks every matching word, ignoring case, inside file names too', () => {
    expect(markSnippet('Renamed zebra.txt to Okapi.txt, okapi!', ['okapi'], marks)).toBe(
      'Renamed zebra.txt to [Okapi].txt, [okapi]!',
    );
  });

  it('cuts long text around the first match and shows where it cut', () => {
    const words = Array.from({ length: 60 }, (_, index) => `w${index}`);
    words[30] = 'needle';
    const snippet = markSnippet(words.join(' '), ['needle'], marks, 9);
    expect(snippet).toBe('…w27 w28 w29 [needle] w31 w32 w33 w34 w35…');
  });

  it('starts at the beginning when nothing matches, and handles empty text', () => {
    expect(markSnippet('one two three', ['four'], marks, 2)).toBe('one two…');
    expect(markSnippet('', ['x'], marks)).toBe('');
  });
});
