import { isApiError } from '../../api/http';

/** The gateway's per-field messages of a refused request (`issues: [{ path, message }]`), by field. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!isApiError(error)) return {};
  const byField: Record<string, string> = {};
  for (const issue of error.issues) {
    if (typeof issue !== 'object' || issue === null) continue;
    const { path, message } = issue as { path?: unknown; message?: unknown };
    if (typeof path !== 'string' || typeof message !== 'string') continue;
    // `timeout` (seconds) and `timeoutMs` are one field in the form.
    const field = path === 'timeout' ? 'timeoutMs' : path.split('.')[0]!;
    byField[field] ??= message;
  }
  return byField;
}
