import { STATUS_CODES } from 'node:http';
import { ERROR_CODES, ErrorCode, ErrorStatus } from './error-codes';

export interface ProblemOptions {
  /** RFC 9457 extension members, such as `errors` for validation failures or `allowedDate`. */
  extensions?: Record<string, unknown>;
  /** Response headers that belong to the error, such as `WWW-Authenticate` or `Retry-After`. */
  headers?: Record<string, string>;
  /** A complete body that replaces the standard rendering, for the few answers the interface fixes (429 `{allowedDate}`). */
  body?: Record<string, unknown>;
}

/**
 * The one exception type of an error answer. `code` is a stable machine-readable identifier
 * (ERROR_CODES, documented in docs/errors.md); domain code makes it with problem(), whose status
 * comes from the code. Each app's filter renders it in the format its clients expect: RFC 9457
 * problem details on the management API, RFC 6749 error JSON on the OAuth endpoints.
 */
export class ProblemException extends Error {
  readonly extensions: Record<string, unknown>;
  readonly headers: Record<string, string>;
  readonly body: Record<string, unknown> | undefined;

  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    options: ProblemOptions = {},
  ) {
    super(detail);
    this.name = 'ProblemException';
    this.extensions = options.extensions ?? {};
    this.headers = options.headers ?? {};
    this.body = options.body;
  }

  get title(): string {
    return STATUS_CODES[this.status] ?? 'Error';
  }
}

/**
 * The error of a code, with the status ERROR_CODES gives it: domain code raises errors by code only.
 * `status` is for the few places that answer a code with another status, which ERROR_CODES lists
 * (the type allows only those).
 */
export function problem<C extends ErrorCode>(
  code: C,
  detail: string,
  options: ProblemOptions & { status?: ErrorStatus<C> } = {},
): ProblemException {
  return new ProblemException(options.status ?? ERROR_CODES[code].status, code, detail, options);
}

/** A problem another Sesame API answered, passed on with its code (which may be that API's own, not one of ERROR_CODES). */
export function relayedProblem(status: number, code: string, detail: string, options: ProblemOptions = {}): ProblemException {
  return new ProblemException(status, code, detail, options);
}

export const notFound = (resource: string) => problem('not_found', `${resource} not found`);

/** A 400 `validation_failed` problem listing field errors, shaped like the validation pipe's. */
export function validationFailed(errors: { field: string; message: string }[]): ProblemException {
  return problem('validation_failed', errors.map((error) => error.message).join('; '), {
    extensions: { errors: errors.map((error) => ({ field: error.field, messages: [error.message] })) },
  });
}
