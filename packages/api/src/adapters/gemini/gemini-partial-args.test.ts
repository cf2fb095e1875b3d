import { describe, expect, it } from 'vitest';
import { applyPartialArgs, createPartialArguments, parseJsonPath } from './gemini-partial-args.js';

describe('parseJsonPath', () => {
  it.each([
    ['$.id', ['id']],
    ['$.foo.bar[0].data', ['foo', 'bar', 0, 'data']],
    ["$['with space']", ['with space']],
    ['$["q\\"uote"]', ['q"uote']],
  ])('%s is %j', (path, segments) => {
    expect(parseJsonPath(path)).toEqual(segments);
  });

  it.each(['id', '$..id', '$[*]', '$.'])('refuses %s', (path) => {
    expect(parseJsonPath(path)).toBeUndefined();
  });
});

describe('applyPartialArgs', () => {
  it('appends string pieces while willContinue, then replaces on a fresh start', () => {
    const args = createPartialArguments();
    applyPartialArgs(args, [{ jsonPath: '$.id', stringValue: 'A', willContinue: true }]);
    applyPartialArgs(args, [{ jsonPath: '$.id', stringValue: 'BC' }]);
    expect(args.value).toEqual({ id: 'ABC' });
    applyPartialArgs(args, [{ jsonPath: '$.id', stringValue: 'new' }]);
    expect(args.value).toEqual({ id: 'new' });
  });

  it('builds nested objects and arrays with every value type', () => {
    const args = createPartialArguments();
    applyPartialArgs(args, [
      { jsonPath: '$.query.terms[0]', stringValue: 'port' },
      { jsonPath: '$.query.terms[1]', stringValue: 'host' },
      { jsonPath: '$.limit', numberValue: 5 },
      { jsonPath: '$.exact', boolValue: false },
      { jsonPath: '$.cursor', nullValue: 'NULL_VALUE' },
      { jsonPath: 'bad path', stringValue: 'ignored' },
      { stringValue: 'no path' },
    ]);
    expect(args.value).toEqual({ query: { terms: ['port', 'host'] }, limit: 5, exact: false, cursor: null });
  });
});
