import { InvalidStateError as CoreInvalidStateError } from '@sesame/client-core';

export { ProviderError, RateLimitedError, SesameError } from '@sesame/client-core';

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
export class InvalidStateError extends CoreInvalidStateError<InvalidStateReason> {
  constructor(reason: InvalidStateReason) {
    super(reason, INVALID_STATE_MESSAGES[reason]);
  }
}

const INVALID_STATE_MESSAGES: Record<InvalidStateReason, string> = {
  unknown_state: 'The state of this callback does not belong to a login started in this browser (or that login expired)',
  bad_signature: 'The state of this autologin callback was not signed by this application, or it is too old',
  rejected: 'The application rejected the state of this callback',
  missing_state: 'The callback has no state',
};
