import type { ReactNode } from 'react';

/** A page's title (its one `<h1>`) with optional actions on the right. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {children === undefined ? null : <div className="page-actions">{children}</div>}
    </div>
  );
}
