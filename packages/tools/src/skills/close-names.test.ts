import { describe, expect, it } from 'vitest';
import { closeNames } from './close-names.js';

const names = ['code-review', 'commit-message', 'css-refactor-advisor', 'test-writer'];

describe('closeNames', () => {
  it('finds typos and partial names, nearest first', () => {
    expect(closeNames('code-reveiw', names)).toEqual(['code-review']);
    expect(closeNames('review', names)).toEqual(['code-review']);
    expect(closeNames('COMMIT', names)).toEqual(['commit-message']);
  });

  it('returns nothing for unrelated names and respects the limit', () => {
    expect(closeNames('deploy-to-production', names)).toEqual([]);
    expect(closeNames('e', names, 2)).toHaveLength(2);
  });
});
