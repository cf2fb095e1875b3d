import { isConfigError } from '@boxagnts/workspace';
import { isCliError } from '../cli/cli-error.js';
import { GatewayError } from '../gateway-error.js';

/**
 * Runs a settings change and turns the workspace's refusals into the gateway's error shape: an invalid
 * config change is `invalid-request` naming the field (the file was left as it was), a held config
 * lock is `conflict`.
 */
export async function settingsCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isConfigError(error)) {
      throw new GatewayError({
        reason: error.reason === 'io' ? 'internal' : 'invalid-request',
        message: error.message,
        issues: error.field === undefined ? [] : [{ path: error.field, message: error.message }],
        cause: error,
      });
    }
    if (isCliError(error)) throw new GatewayError({ reason: 'conflict', message: error.message, cause: error });
    throw error;
  }
}
