import type { ReactNode } from 'react';
import styles from './ComponentName.module.css';

/** What the component is for, in one sentence. */
export interface ComponentNameProps {
  /** Visible title. */
  title: string;
  /** Optional content below the title. */
  children?: ReactNode;
  /** Called when the user activates the component. */
  onSelect?: () => void;
  disabled?: boolean;
}

export function ComponentName({ title, children, onSelect, disabled = false }: ComponentNameProps) {
  return (
    <section className={styles.root} aria-labelledby="component-name-title">
      <h2 id="component-name-title" className={styles.title}>
        {title}
      </h2>
      {children}
      {onSelect !== undefined && (
        <button type="button" onClick={onSelect} disabled={disabled}>
          Select
        </button>
      )}
    </section>
  );
}
