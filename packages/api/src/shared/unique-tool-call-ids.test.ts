import { describe, expect, it } from 'vitest';
import { UniqueToolCallIds } from './unique-tool-call-ids.js';

describe('UniqueToolCallIds', () => {
  it('keeps usable vendor ids, fills missing ones and suffixes repeats', () => {
    const ids = new UniqueToolCallIds();
    expect(ids.next('toolu_1', 0)).toBe('toolu_1');
    expect(ids.next(undefined, 1)).toBe('call_1');
    expect(ids.next('  ', 2)).toBe('call_2');
    expect(ids.next('toolu_1', 3)).toBe('toolu_1_2');
    expect(ids.next('toolu_1', 4)).toBe('toolu_1_3');
    // A vendor id that collides with a generated one is suffixed too.
    expect(ids.next('call_2', 5)).toBe('call_2_2');
  });
});
