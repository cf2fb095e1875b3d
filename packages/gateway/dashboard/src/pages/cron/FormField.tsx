import { cloneElement, type ReactElement, useId } from 'react';

/**
 * One labelled form field with its hint and the gateway's message for it: the control is named by the
 * label, described by the hint and the error, and marked invalid while the error stands.
 */
export function FormField({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: string;
  error?: string | undefined;
  children: ReactElement<Record<string, unknown>>;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint === undefined ? undefined : hintId, error === undefined ? undefined : errorId]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, {
        id,
        'aria-invalid': error === undefined ? undefined : true,
        'aria-describedby': describedBy === '' ? undefined : describedBy,
      })}
      {hint === undefined ? null : (
        <small id={hintId} className="muted">
          {hint}
        </small>
      )}
      {error === undefined ? null : (
        <small id={errorId} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}
