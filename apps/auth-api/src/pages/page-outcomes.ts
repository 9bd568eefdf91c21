import { RenderedPage } from './layout';

/**
 * A page answered with a status other than the handler's (a form shown again with an error),
 * or a redirect decided inside a page handler. PageErrorFilter sends both; handlers throw them
 * because a Nest handler's status is fixed by its decorators.
 */
export class PageWithStatus extends Error {
  constructor(
    readonly status: number,
    readonly page: RenderedPage,
    readonly headers: Record<string, string> = {},
  ) {
    super(`Page answered with ${status}`);
  }
}

export class PageRedirect extends Error {
  constructor(
    readonly url: string,
    readonly status = 303,
    readonly headers: Record<string, string> = {},
  ) {
    super('Page redirect');
  }
}

/** What a `@Redirect()` page handler answers: 303 to `url`, setting `cookie` (an autologin walk's) when there is one. */
export function seeOther({ url, cookie }: { url: string; cookie?: string }): {
  url: string;
  statusCode: 303;
  headers: Record<string, string>;
} {
  return { url, statusCode: 303, headers: cookie ? { 'Set-Cookie': cookie } : {} };
}
