import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { toProblem } from '@sesame/common';
import { chooseLocale } from './locales';
import { ERROR_PAGE_STRINGS } from './error-page.strings';
import { html } from './html';
import { renderPage } from './layout';
import { setPageHeaders } from './page-headers';
import { PageRedirect, PageWithStatus } from './page-outcomes';

/**
 * Errors on pages are pages too: a clear message, the right status, and no redirect anywhere.
 * Also sends the pages and redirects that handlers decide on (see page-outcomes.ts).
 */
@Catch()
export class PageErrorFilter implements ExceptionFilter {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const adapter = this.adapterHost.httpAdapter;
    const response = host.switchToHttp().getResponse();
    if (error instanceof PageRedirect) {
      setPageHeaders(adapter, response);
      for (const [name, value] of Object.entries(error.headers)) adapter.setHeader(response, name, value);
      adapter.redirect(response, error.status, error.url);
      return;
    }
    if (error instanceof PageWithStatus) {
      setPageHeaders(adapter, response, error.page.contentSecurityPolicy);
      for (const [name, value] of Object.entries({ ...error.page.headers, ...error.headers })) adapter.setHeader(response, name, value);
      adapter.setHeader(response, 'Content-Type', 'text/html; charset=utf-8');
      adapter.reply(response, error.page.html, error.status);
      return;
    }
    const problem = toProblem(error);
    const acceptLanguage = host.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>().headers['accept-language'];
    const locale = chooseLocale(undefined, acceptLanguage);
    const strings = ERROR_PAGE_STRINGS[locale];
    // A refusal without words of its own shows its detail (English, like the API's errors).
    const own = Object.hasOwn(strings.messages, problem.code) ? strings.messages[problem.code as keyof typeof strings.messages] : undefined;
    const message = own ?? (problem.status >= 500 ? strings.failed : { ...strings.refused, text: problem.detail });
    const page = renderPage(
      { title: message.title, icon: 'alert', body: html`<h1>${message.title}</h1><p>${message.text}</p>` },
      [],
      locale,
    );
    for (const [name, value] of Object.entries(problem.headers)) adapter.setHeader(response, name, value);
    setPageHeaders(adapter, response, page.contentSecurityPolicy);
    adapter.setHeader(response, 'Content-Type', 'text/html; charset=utf-8');
    adapter.reply(response, page.html, problem.status);
  }
}
