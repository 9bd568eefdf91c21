/** The route of the e-mailed login link under /v1: auth-api serves it, the mail worker links to it. */
export const LOGIN_LINK_ROUTE = 'login_link';

/** The address of a login link, as the e-mail carries it. */
export function loginLinkUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/v1/${LOGIN_LINK_ROUTE}?token=${encodeURIComponent(token)}`;
}
