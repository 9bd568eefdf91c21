import { InvalidStateError as CoreInvalidStateError } from '@sesame/client-core';

export { ProviderError, RateLimitedError, SesameError } from '@sesame/client-core';

export type InvalidStateReason = 'unknown_state' | 'missing_state';

/** The redirect's state is not the one of a login this app started (or that login expired): nothing was exchanged. */
export class InvalidStateError extends CoreInvalidStateError<InvalidStateReason> {
  constructor(reason: InvalidStateReason) {
    super(
      reason,
      reason === 'missing_state'
        ? 'The redirect has no state'
        : 'The redirect does not belong to a login started by this app (or that login expired)',
    );
  }
}
