import type { components } from './management-api';

/** The API's problem details; `code` is one of the API's codes, or `unexpected_answer` for an answer that is not problem details. */
export type ProblemDetails = Omit<components['schemas']['ProblemDetails'], 'code'> & {
  code: components['schemas']['ProblemDetails']['code'] | 'unexpected_answer';
};

/** An RFC 9457 answer of the API, thrown so that queries and mutations fail with it. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly problem: ProblemDetails,
  ) {
    super(problem.detail || problem.title);
    this.name = 'ApiProblem';
  }

  get code(): string {
    return this.problem.code;
  }

  /** The messages for one field (`name`, `whitelistDomains.1`), as the API's validation reports them. */
  messagesFor(field: string): string[] {
    return this.problem.errors?.filter((error) => error.field === field).flatMap((error) => error.messages) ?? [];
  }
}

/** The problem of a network failure or an answer that is not problem details. */
export function unreadableAnswer(status: number): ApiProblem {
  return new ApiProblem(status, {
    type: 'about:blank',
    title: 'Unexpected answer',
    status,
    detail:
      status === 0
        ? 'The console could not be reached. Check your connection and try again.'
        : `The console answered ${status}. Try again in a moment.`,
    code: 'unexpected_answer',
  });
}

export function isProblem(error: unknown, code?: string): error is ApiProblem {
  return error instanceof ApiProblem && (code === undefined || error.code === code);
}

/** Words for a person: the problem's detail, or the error's message. */
export function describeError(error: unknown): string {
  if (error instanceof ApiProblem) return error.problem.detail || error.problem.title;
  return error instanceof Error ? error.message : 'Something went wrong.';
}
