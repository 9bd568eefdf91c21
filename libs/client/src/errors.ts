/**
 * Errors of the client, all subclasses of SesameError so that an app can catch them together and
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
      allowedDate ? `The next login for this address is allowed at ${allowedDate.toISOString()}` : `Rate limited by Sesame${retryAfter !== null ? `; retry after ${retryAfter} s` : ''}`,
    );
  }
}

export type InvalidStateReason =
  /** No login started in this browser has this state (or the login cookie expired). */
  | 'unknown_state'
  /** The state of an autologin stop is not one this application signed, or it is too old. */
  | 'bad_signature'
  /** onStateReceived returned false. */
  | 'rejected'
  /** The callback has no state. */
  | 'missing_state';

/** The callback's state could not be verified: the flow was aborted and nothing was exchanged. */
export class InvalidStateError extends SesameError {
  constructor(readonly reason: InvalidStateReason) {
    super('invalid_state', INVALID_STATE_MESSAGES[reason]);
  }
}

const INVALID_STATE_MESSAGES: Record<InvalidStateReason, string> = {
  unknown_state: 'The state of this callback does not belong to a login started in this browser (or that login expired)',
  bad_signature: 'The state of this autologin callback was not signed by this application, or it is too old',
  rejected: 'The application rejected the state of this callback',
  missing_state: 'The callback has no state',
};

/**
 * An error reported by Sesame: on the callback (`error` and `error_description` query parameters,
 * e.g. `login_link_expired`) or as an API answer (RFC 6749 JSON, e.g. `invalid_grant`).
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
