import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { oauthErrorCode, toProblem } from '@sesame/common';

/**
 * Renders errors of the auth API's JSON endpoints as RFC 6749 §5.2 error responses:
 * `{"error": "...", "error_description": "..."}`, never cached.
 */
@Catch()
export class OAuthErrorFilter implements ExceptionFilter {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const adapter = this.adapterHost.httpAdapter;
    const response = host.switchToHttp().getResponse();
    const problem = toProblem(error);
    const body = problem.body ?? { error: oauthErrorCode(problem.code), error_description: problem.detail };
    for (const [name, value] of Object.entries(problem.headers)) adapter.setHeader(response, name, value);
    adapter.setHeader(response, 'Cache-Control', 'no-store');
    adapter.setHeader(response, 'Content-Type', 'application/json');
    adapter.reply(response, JSON.stringify(body), problem.status);
  }
}
