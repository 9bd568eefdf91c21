/**
 * The callback URLs an autologin walks through after a login, one per whitelist domain of the
 * organization other than the origin the login started from (see docs/autologin.md):
 * the application's registered callback URL on that origin, or, when it registered none, the
 * original redirect_uri's path and query on that origin. Wildcard domains cannot be walked.
 */
export function autologinTargets(redirectUri: string, whitelistDomains: readonly string[], callbackUrls: readonly string[]): string[] {
  const original = new URL(redirectUri);
  const targets: string[] = [];
  for (const origin of whitelistDomains) {
    if (origin.includes('*') || origin === original.origin) continue;
    const target = callbackUrls.length > 0 ? callbackUrls.find((url) => new URL(url).origin === origin) : new URL(original.pathname + original.search, origin).href;
    if (target && !targets.includes(target)) targets.push(target);
  }
  return targets;
}
