/** Light and dark themes: the user's choice (kept in local storage), else the system's. */
export type Theme = 'light' | 'dark';
const THEME_KEY = 'boxagnts.theme';

export function storedTheme(): Theme | undefined {
  try {
    const value = localStorage.getItem(THEME_KEY);
    return value === 'light' || value === 'dark' ? value : undefined;
  } catch {
    return undefined;
  }
}

export function currentTheme(): Theme {
  return storedTheme() ?? (window.matchMedia?.('(prefers-color-scheme: dark)').matches === true ? 'dark' : 'light');
}

export function setTheme(theme: Theme): void {
  localStorage.setItem(THEME_KEY, theme);
  document.documentElement.dataset.theme = theme;
}

export function applyStoredTheme(): void {
  document.documentElement.dataset.theme = currentTheme();
}
