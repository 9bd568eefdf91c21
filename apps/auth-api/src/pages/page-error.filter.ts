import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { toProblem } from '@sesame/common';
import { html } from './html';
import { renderPage } from './layout';
import { setPageHeaders } from './page-headers';
import { PageRedirect, PageWithStatus } from './page-outcomes';

const MESSAGES: Record<string, { title: string; text: string }> = {
  unknown_login_link: {
    title: 'This link is not valid',
    text: 'The sign-in link is incomplete or was never issued. Open the link from your most recent e-mail, or start signing in again.',
  },
  invalid_client: { title: 'Unknown application', text: 'The application that sent you here is not registered. Contact its support.' },
  invalid_redirect_uri: {
    title: 'This sign-in request cannot continue',
    text: 'The application asked to send you to an address it has not registered. Contact its support.',
  },
  rate_limited: { title: 'Too many requests', text: 'Please wait a moment and try again.' },
};

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
    const message = MESSAGES[problem.code] ?? {
      title: problem.status >= 500 ? 'Something went wrong' : 'This request cannot be completed',
      text: problem.status >= 500 ? 'Please try again in a moment.' : problem.detail,
    };
    const page = renderPage({ title: message.title, icon: 'alert', body: html`<h1>${message.title}</h1><p>${message.text}</p>` });
    for (const [name, value] of Object.entries(problem.headers)) adapter.setHeader(response, name, value);
    setPageHeaders(adapter, response, page.contentSecurityPolicy);
    adapter.setHeader(response, 'Content-Type', 'text/html; charset=utf-8');
    adapter.reply(response, page.html, problem.status);
  }
}
