import { STATUS_CODES } from 'node:http';

export interface ProblemOptions {
  /** RFC 9457 extension members, such as `errors` for validation failures or `allowedDate`. */
  extensions?: Record<string, unknown>;
  /** Response headers that belong to the error, such as `WWW-Authenticate` or `Retry-After`. */
  headers?: Record<string, string>;
  /** A complete body that replaces the standard rendering, for the few answers the interface fixes (429 `{allowedDate}`). */
  body?: Record<string, unknown>;
}

/**
 * The one exception type domain code throws. `code` is a stable machine-readable identifier
 * (documented in docs/errors.md); each app's filter renders it in the format its clients expect:
 * RFC 9457 problem details on the management API, RFC 6749 error JSON on the OAuth endpoints.
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

export const badRequest = (code: string, detail: string, extensions?: Record<string, unknown>) =>
  new ProblemException(400, code, detail, { extensions });

export const forbidden = (code: string, detail: string) => new ProblemException(403, code, detail);

export const notFound = (resource: string) =>
  new ProblemException(404, 'not_found', `${resource} not found`);

export const conflict = (code: string, detail: string) => new ProblemException(409, code, detail);

export const unauthorized = (code: string, detail: string, challenge: string) =>
  new ProblemException(401, code, detail, { headers: { 'WWW-Authenticate': challenge } });

/** A 400 `validation_failed` problem listing field errors, shaped like the validation pipe's. */
export function validationFailed(errors: { field: string; message: string }[]): ProblemException {
  return badRequest(
    'validation_failed',
    errors.map((error) => error.message).join('; '),
    { errors: errors.map((error) => ({ field: error.field, messages: [error.message] })) },
  );
}
