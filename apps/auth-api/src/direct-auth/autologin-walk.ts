import { allowedRedirect, RedirectTarget } from '@sesame/common';

/**
 * The callback URLs an autologin walks through after a login, one per whitelist domain of the
 * organization other than the origin the login started from (see docs/autologin.md):
 * the application's registered callback URL on that origin, or, when it registered none, the
 * original redirect_uri's path and query set on that origin. Wildcard domains cannot be walked.
 * Every stop passes the same redirect rules as the login's own redirect_uri and keeps the
 * whitelist entry's origin; anything else is skipped.
 */
export function autologinTargets(redirectUri: string, application: RedirectTarget): string[] {
  const original = new URL(redirectUri);
  const targets: string[] = [];
  for (const origin of application.whitelistDomains) {
    if (origin.includes('*') || origin === original.origin) continue;
    const candidate =
      application.callbackUrls.length > 0
        ? application.callbackUrls.find((url) => new URL(url).origin === origin)
        : onOrigin(origin, original);
    const target = candidate === undefined ? null : allowedRedirect(application, candidate);
    if (target && target.origin === origin && !targets.includes(target.href)) targets.push(target.href);
  }
  return targets;
}

/** `original`'s path and query on `origin`, set as path and query (never parsed as a relative URL, where "//x" would be a host). */
function onOrigin(origin: string, original: URL): string {
  const url = new URL(origin);
  url.pathname = original.pathname;
  url.search = original.search;
  return url.href;
}
