/** Errors of the client, all subclasses of SesameError (tell them apart with `instanceof` or `code`). */
export class SesameError extends Error {
  constructor(
    /** A machine-readable code: an RFC 6749 error code from Sesame, or one of the client's own. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** HTTP 429 that the client's retries with exponential backoff did not get through. */
export class RateLimitedError extends SesameError {
  constructor(
    /** Seconds to wait, from the Retry-After header, when Sesame sent one. */
    readonly retryAfter: number | null,
  ) {
    super('rate_limited', `Rate limited by Sesame${retryAfter !== null ? `; retry after ${retryAfter} s` : ''}`);
  }
}

export type InvalidStateReason = 'unknown_state' | 'missing_state';

/** The redirect's state is not the one of a login this app started (or that login expired): nothing was exchanged. */
export class InvalidStateError extends SesameError {
  constructor(readonly reason: InvalidStateReason) {
    super('invalid_state', reason === 'missing_state' ? 'The redirect has no state' : 'The redirect does not belong to a login started by this app (or that login expired)');
  }
}

/** An error reported by Sesame, on the redirect (`error`, `error_description`) or as an API answer (RFC 6749 JSON). */
export class ProviderError extends SesameError {
  constructor(
    readonly error: string,
    readonly errorDescription: string | null,
    /** The HTTP status of an API answer; null for an error received on the redirect. */
    readonly status: number | null = null,
  ) {
    super(error, errorDescription ? `${error}: ${errorDescription}` : error);
  }
}
