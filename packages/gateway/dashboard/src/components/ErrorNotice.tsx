import { isApiError } from '../api/http';

/** A failed request, as the gateway explained it (its message says what to change). */
export function ErrorNotice({ error, label }: { error: unknown; label?: string }) {
  if (error === null || error === undefined) return null;
  const message = isApiError(error) ? error.message : error instanceof Error ? error.message : String(error);
  return (
    <div role="alert" className="notice notice-error">
      {label === undefined ? null : <strong>{label}: </strong>}
      {message}
    </div>
  );
}
