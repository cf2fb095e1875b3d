import { describe, expect, it } from 'vitest';
import { ETAG_ABSENT, etagOf, preconditionProblem } from './file-etag.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('file etags and ifMatch', () => {
  it('tags by content: equal bytes, equal tags; other bytes, another tag', () => {
    expect(etagOf(bytes('alpha'))).toBe(etagOf(bytes('alpha')));
    expect(etagOf(bytes('alpha'))).not.toBe(etagOf(bytes('alphA')));
    expect(etagOf(bytes(''))).toMatch(/^"sha256-[A-Za-z0-9_-]{32}"$/);
  });

  it('lets a write through only over the file the client read', () => {
    const tag = etagOf(bytes('v1'));
    expect(preconditionProblem(tag, bytes('v1'))).toBeUndefined();
    expect(preconditionProblem(tag, bytes('v2'))).toBe('changed since you read it');
    expect(preconditionProblem(tag, undefined)).toBe('was deleted since you read it');
    expect(preconditionProblem(ETAG_ABSENT, undefined)).toBeUndefined();
    expect(preconditionProblem(ETAG_ABSENT, bytes('v1'))).toBe('exists already');
  });
});
