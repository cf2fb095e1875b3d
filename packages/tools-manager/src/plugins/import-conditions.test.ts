import { describe, expect, it } from 'vitest';
import { conditionFlags, importConditions } from './import-conditions.js';

describe('importConditions', () => {
  it('reads --conditions and -C in all their spellings', () => {
    expect(
      conditionFlags(['--conditions=dev', '-C', 'edge', '--conditions', 'source', '-C=last', '--inspect']),
    ).toEqual(['dev', 'edge', 'source', 'last']);
    expect(conditionFlags(['--conditions'])).toEqual([]);
  });

  it('adds the process flags, NODE_OPTIONS and the host extras to Node’s own import conditions', () => {
    const conditions = importConditions(
      ['custom'],
      ['--conditions=from-argv'],
      '--max-old-space-size=100 --conditions=@boxagnts/source',
    );
    expect([...conditions]).toEqual(['import', 'node', 'module-sync', 'from-argv', '@boxagnts/source', 'custom']);
  });

  it('uses only Node’s own conditions when nothing else is given', () => {
    expect([...importConditions([], [], undefined)]).toEqual(['import', 'node', 'module-sync']);
  });
});
