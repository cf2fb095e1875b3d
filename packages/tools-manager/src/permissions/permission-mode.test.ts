import { describe, expect, it } from 'vitest';
import { isPermissionMode, isPermissionModeError, PERMISSION_MODES, PermissionModeError } from './permission-mode.js';

describe('isPermissionMode', () => {
  it('accepts exactly the four modes', () => {
    expect(PERMISSION_MODES).toEqual(['plan', 'default', 'accept-edits', 'bypass']);
    expect(PERMISSION_MODES.every(isPermissionMode)).toBe(true);
    for (const value of ['Default', 'acceptEdits', 'bypassPermissions', '', undefined, null, 0]) {
      expect(isPermissionMode(value), String(value)).toBe(false);
    }
  });
});

describe('PermissionModeError', () => {
  it('names the bad value and the good ones, and is recognised by marker', () => {
    const error = new PermissionModeError(undefined);
    expect(error.message).toBe('Unknown permission mode undefined: use one of plan, default, accept-edits, bypass.');
    expect(isPermissionModeError(error)).toBe(true);
    expect(isPermissionModeError(new Error('x'))).toBe(false);
  });
});
