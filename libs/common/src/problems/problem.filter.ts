import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { PROBLEM_CONTENT_TYPE, problemType } from './problem-details';
import { toProblem } from './to-problem';

/** Renders every error of the management API as an RFC 9457 problem details body. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const adapter = this.adapterHost.httpAdapter;
    const problem = toProblem(error);
    const response = http.getResponse();
    const body = problem.body ?? {
      type: problemType(problem.code),
      title: problem.title,
      status: problem.status,
      detail: problem.detail,
      code: problem.code,
      instance: adapter.getRequestUrl(http.getRequest())?.split('?')[0],
      ...problem.extensions,
    };
    for (const [name, value] of Object.entries(problem.headers)) adapter.setHeader(response, name, value);
    adapter.setHeader(response, 'Content-Type', problem.body ? 'application/json' : PROBLEM_CONTENT_TYPE);
    adapter.reply(response, JSON.stringify(body), problem.status);
  }
}
