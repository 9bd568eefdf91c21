import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { toProblem } from '@sesame/common';

/** Problem codes that RFC 6749 calls `invalid_request`. */
const INVALID_REQUEST = new Set(['validation_failed', 'malformed_body', 'bad_request', 'invalid_id', 'invalid_cursor', 'unsupported_media_type', 'payload_too_large']);

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
    const body = problem.body ?? { error: INVALID_REQUEST.has(problem.code) ? 'invalid_request' : problem.code, error_description: problem.detail };
    for (const [name, value] of Object.entries(problem.headers)) adapter.setHeader(response, name, value);
    adapter.setHeader(response, 'Cache-Control', 'no-store');
    adapter.setHeader(response, 'Content-Type', 'application/json');
    adapter.reply(response, JSON.stringify(body), problem.status);
  }
}
