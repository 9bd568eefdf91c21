/** Light or dark: the system's unless the person chose (kept in localStorage; not a secret). */
export type Theme = 'light' | 'dark';
const KEY = 'sesame-console:theme';

export function storedTheme(): Theme | null {
  const value = localStorage.getItem(KEY);
  return value === 'light' || value === 'dark' ? value : null;
}

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The system's theme, for useSyncExternalStore with subscribeToSystemTheme. */
export function systemTheme(): Theme {
  return matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

export function subscribeToSystemTheme(onChange: () => void): () => void {
  const query = matchMedia(DARK_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

export function setTheme(theme: Theme): void {
  localStorage.setItem(KEY, theme);
  applyStoredTheme();
}

export function applyStoredTheme(): void {
  const theme = storedTheme();
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}
