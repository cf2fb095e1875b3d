import { useState } from 'react';
import { currentTheme, setTheme, type Theme } from '../theme';

export function ThemeToggle() {
  const [theme, setState] = useState<Theme>(currentTheme());
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="btn btn-ghost"
      aria-label={`Switch to the ${next} theme`}
      onClick={() => {
        setTheme(next);
        setState(next);
      }}
    >
      {theme === 'dark' ? 'Light theme' : 'Dark theme'}
    </button>
  );
}
