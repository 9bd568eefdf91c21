import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { toProblem } from '@sesame/common';

/** Problem codes and the RFC 6749 error codes they are reported as. */
const OAUTH_CODES: Record<string, string> = {
  validation_failed: 'invalid_request',
  malformed_body: 'invalid_request',
  bad_request: 'invalid_request',
  invalid_id: 'invalid_request',
  invalid_cursor: 'invalid_request',
  unsupported_media_type: 'invalid_request',
  payload_too_large: 'invalid_request',
  rate_limiter_unavailable: 'temporarily_unavailable',
  service_unavailable: 'temporarily_unavailable',
  internal_error: 'server_error',
};

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
    const body = problem.body ?? { error: OAUTH_CODES[problem.code] ?? problem.code, error_description: problem.detail };
    for (const [name, value] of Object.entries(problem.headers)) adapter.setHeader(response, name, value);
    adapter.setHeader(response, 'Cache-Control', 'no-store');
    adapter.setHeader(response, 'Content-Type', 'application/json');
    adapter.reply(response, JSON.stringify(body), problem.status);
  }
}
