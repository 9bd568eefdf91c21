/**
 * Where to go after signing in: the page a lost session interrupted. The sign-in link may open in
 * another tab, so it is kept in localStorage — a path of the console, never anything secret.
 */
const KEY = 'sesame-console:return-to';

export function rememberReturnTo(path: string): void {
  if (path.startsWith('/') && !path.startsWith('//')) localStorage.setItem(KEY, path);
}

export function takeReturnTo(): string | null {
  const path = localStorage.getItem(KEY);
  localStorage.removeItem(KEY);
  return path && path.startsWith('/') && !path.startsWith('//') ? path : null;
}
