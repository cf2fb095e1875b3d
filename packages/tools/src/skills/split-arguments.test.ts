import { describe, expect, it } from 'vitest';
import { splitArguments } from './split-arguments.js';

describe('splitArguments', () => {
  it('splits on any whitespace and drops empty words', () => {
    expect(splitArguments('  a\tb \n c  ')).toEqual(['a', 'b', 'c']);
    expect(splitArguments('')).toEqual([]);
    expect(splitArguments('   ')).toEqual([]);
  });

  it('keeps quoted spaces and joins adjacent quoted parts', () => {
    expect(splitArguments(`src/a.ts "two words" 'single quoted' it'll'"s"`)).toEqual([
      'src/a.ts',
      'two words',
      'single quoted',
      'itlls',
    ]);
  });

  it('keeps empty quoted words', () => {
    expect(splitArguments(`a "" ''`)).toEqual(['a', '', '']);
  });

  it('honours escapes outside quotes and \\" inside double quotes, but not in single quotes', () => {
    expect(splitArguments(String.raw`a\ b "say \"hi\"" 'raw\n'`)).toEqual(['a b', 'say "hi"', String.raw`raw\n`]);
  });

  it('runs an unclosed quote to the end', () => {
    expect(splitArguments(`one "two three`)).toEqual(['one', 'two three']);
  });
});
