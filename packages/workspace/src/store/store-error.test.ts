import { describe, expect, it } from 'vitest';
import { isStoreError, StoreError, toStoreError } from './store-error.js';

describe('StoreError', () => {
  it('is recognised by its Symbol.for marker, also from another copy of the package', () => {
    const error = new StoreError({ reason: 'not-found', message: 'gone', sessionId: 's' });
    expect(isStoreError(error)).toBe(true);
    const foreign = Object.assign(new Error('copy'), { [Symbol.for('boxagnts.workspace.store-error')]: true });
    expect(isStoreError(foreign)).toBe(true);
    expect(isStoreError(new Error('plain'))).toBe(false);
    expect(isStoreError(null)).toBe(false);
    expect(error).toMatchObject({ name: 'StoreError', reason: 'not-found', sessionId: 's' });
  });

  it('maps driver errors of both backends to reasons', () => {
    const withCode = (code: string) => Object.assign(new Error(`driver says ${code}`), { code });
    expect(toStoreError(withCode('SQLITE_BUSY'), 'Appending').reason).toBe('busy');
    expect(toStoreError(withCode('SQLITE_CONSTRAINT_UNIQUE'), 'Creating').reason).toBe('conflict');
    expect(toStoreError(withCode('23505'), 'Creating').reason).toBe('conflict');
    expect(toStoreError(withCode('ECONNREFUSED'), 'Opening').reason).toBe('connection-failed');
    expect(toStoreError(withCode('3D000'), 'Opening').reason).toBe('connection-failed');
    const other = toStoreError(withCode('SQLITE_FULL'), 'Appending');
    expect(other.reason).toBe('database');
    expect(other.message).toBe('Appending failed: driver says SQLITE_FULL');
    const busy = toStoreError(withCode('SQLITE_BUSY'), 'Appending');
    expect(busy.message).toContain('raise the busy timeout');
    const original = new StoreError({ reason: 'closed', message: 'closed' });
    expect(toStoreError(original, 'x')).toBe(original);
  });
});
