/**
 * Whether a browser sent a request on behalf of a page of `ownOrigin` (CSRF defence for
 * cookie-authenticated changes), from what the browser says about it:
 * - `Sec-Fetch-Site` (Fetch Metadata, sent by current browsers): only `same-origin` or `none` (the
 *   user's own action, such as a bookmark) pass;
 * - without it, `Origin`: when present it must be `ownOrigin` (an opaque "null" does not pass).
 * Requests with neither come from no browser (a server, a test), which carries no ambient credentials.
 */
export function isSameOriginRequest(headers: Record<string, string | string[] | undefined>, ownOrigin: string): boolean {
  const fetchSite = single(headers['sec-fetch-site']);
  if (fetchSite !== undefined) return fetchSite === 'same-origin' || fetchSite === 'none';
  const origin = single(headers.origin);
  return origin === undefined || origin === ownOrigin;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
