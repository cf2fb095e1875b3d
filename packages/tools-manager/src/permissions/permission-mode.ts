import type { PermissionMode } from '../types.js';

/** Every permission mode, in order of how much runs without asking. */
export const PERMISSION_MODES: readonly PermissionMode[] = ['plan', 'default', 'accept-edits', 'bypass'];

/** True when the value is a {@link PermissionMode}; for checking configuration read at run time. */
export function isPermissionMode(value: unknown): value is PermissionMode {
  return typeof value === 'string' && (PERMISSION_MODES as readonly string[]).includes(value);
}

const PERMISSION_MODE_ERROR_MARKER = Symbol.for('boxagnts.tools-manager.permission-mode-error');

/** An unknown permission mode given to the engine: a configuration mistake, reported at once. */
export class PermissionModeError extends Error {
  readonly [PERMISSION_MODE_ERROR_MARKER] = true;
  override readonly name = 'PermissionModeError';
  readonly mode: unknown;

  constructor(mode: unknown) {
    super(
      `Unknown permission mode ${JSON.stringify(mode) ?? String(mode)}: use one of ${PERMISSION_MODES.join(', ')}.`,
    );
    this.mode = mode;
  }
}

/** True for a {@link PermissionModeError}, even one from another copy of this package. */
export function isPermissionModeError(error: unknown): error is PermissionModeError {
  return typeof error === 'object' && error !== null && PERMISSION_MODE_ERROR_MARKER in error;
}
