import type { ToolUseBlock } from '@boxagnts/api';
import { textResult } from '@boxagnts/tools';
import { describe, expect, it } from 'vitest';
import { LoopDetector } from './loop-detector.js';

const call = (name: string, input: Record<string, string> = {}): ToolUseBlock => ({
  type: 'tool_use',
  id: `id-${Math.random()}`,
  name,
  input,
});

function feed(detector: LoopDetector, calls: ToolUseBlock[]) {
  return calls.map((one) => detector.check(one, textResult('ok')));
}

describe('LoopDetector', () => {
  it('notes the third identical call in a row, not different inputs', () => {
    const marks = feed(new LoopDetector(3), [
      call('read', { p: 'a' }),
      call('read', { p: 'a' }),
      call('read', { p: 'a' }),
    ]);
    expect(marks.map((mark) => mark.looping)).toEqual([false, false, true]);
    const varied = feed(new LoopDetector(3), [
      call('read', { p: 'a' }),
      call('read', { p: 'b' }),
      call('read', { p: 'c' }),
    ]);
    expect(varied.some((mark) => mark.looping)).toBe(false);
  });

  it('notes a short cycle A,B,A,B and a cycle of three once it has run twice', () => {
    const ab = feed(new LoopDetector(3), [call('a'), call('b'), call('a'), call('b')]);
    expect(ab.map((mark) => mark.looping)).toEqual([false, false, false, true]);
    expect(JSON.stringify(ab[3]?.result.content)).toContain('cycle of 2 calls');
    const abc = feed(new LoopDetector(3), [call('a'), call('b'), call('c'), call('a'), call('b'), call('c')]);
    expect(abc.map((mark) => mark.looping)).toEqual([false, false, false, false, false, true]);
  });

  it('says stop once the loop passes the second threshold, and a new call breaks the loop', () => {
    const detector = new LoopDetector(3, 6);
    const marks = feed(detector, [call('a'), call('b'), call('a'), call('b'), call('a'), call('b')]);
    expect(marks.map((mark) => mark.stop)).toEqual([false, false, false, false, false, true]);
    expect(feed(detector, [call('c')])[0]).toMatchObject({ looping: false, stop: false });
  });
});
