/**
 * Errors of the SDKs, all subclasses of SesameError so that an app can catch them together and
 * tell them apart with `instanceof` or `code`.
 */
export class SesameError extends Error {
  constructor(
    /** A machine-readable code: an RFC 6749 error code from Sesame, or one of the client's own. */
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * HTTP 429. `allowedDate` is set when Sesame refused a login for this e-mail address before its
 * allowedDate (nothing was sent; tell the user when to try again); otherwise a rate limit was hit
 * and the client's retries with exponential backoff did not get through.
 */
export class RateLimitedError extends SesameError {
  constructor(
    /** The date from which a login for this address is allowed (direct authentication only). */
    readonly allowedDate: Date | null,
    /** Seconds to wait, from the Retry-After header, when Sesame sent one. */
    readonly retryAfter: number | null,
  ) {
    super(
      'rate_limited',
      allowedDate
        ? `The next login for this address is allowed at ${allowedDate.toISOString()}`
        : `Rate limited by Sesame${retryAfter !== null ? `; retry after ${retryAfter} s` : ''}`,
    );
  }
}

/**
 * The state of a callback or redirect could not be verified: the flow was aborted and nothing was
 * exchanged. Each SDK names its reasons and words their messages (a web callback, an app redirect).
 */
export class InvalidStateError<Reason extends string = string> extends SesameError {
  constructor(
    readonly reason: Reason,
    message: string,
  ) {
    super('invalid_state', message);
  }
}

/**
 * An error reported by Sesame: on the callback or redirect (`error` and `error_description` query
 * parameters, e.g. `login_link_expired`) or as an API answer (RFC 6749 JSON, e.g. `invalid_grant`).
 */
export class ProviderError extends SesameError {
  constructor(
    /** The error code, e.g. `access_denied`, `login_link_expired`, `invalid_grant`, `invalid_request`. */
    readonly error: string,
    /** Sesame's human-readable description, when it sent one. */
    readonly errorDescription: string | null,
    /** The HTTP status of an API answer; null for an error received on the callback. */
    readonly status: number | null = null,
  ) {
    super(error, errorDescription ? `${error}: ${errorDescription}` : error);
  }
}
