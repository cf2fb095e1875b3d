import { type ReactNode, useEffect, useId, useRef } from 'react';

export interface DialogProps {
  open: boolean;
  title: string;
  /** Called on Escape or the close button; leave out for a dialog that must be answered. */
  onClose?: () => void;
  children: ReactNode;
}

/**
 * A modal dialog on the native `<dialog>` element: focus moves into it and is trapped by the browser,
 * Escape closes it (when `onClose` is given), and its title names it for screen readers.
 */
export function Dialog({ open, title, onClose, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose?.();
      }}
    >
      {open ? (
        <>
          <div className="dialog-head">
            <h2 id={titleId}>{title}</h2>
            {onClose === undefined ? null : (
              <button type="button" className="btn btn-ghost" aria-label="Close" onClick={onClose}>
                ×
              </button>
            )}
          </div>
          <div className="dialog-body">{children}</div>
        </>
      ) : null}
    </dialog>
  );
}
