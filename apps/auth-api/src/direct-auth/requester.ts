import { digestsEqual } from '@sesame/common';
import { AttemptSummary } from '@sesame/entities';

/**
 * Who started an attempt, and so who may follow it (its status, its code): the application, for
 * direct authentication; the browser that asked (the hash of its `sesame_attempt` cookie), for the
 * hosted page, whose attempts anyone holding a client_id could otherwise name.
 */
export type Requester = { applicationId: string } | { browserHash: Buffer };

/** Whether `by` is the requester of the attempt; to anyone else the attempt is "not found". */
export function requestedBy(attempt: AttemptSummary, by: Requester): boolean {
  if ('applicationId' in by) return attempt.flow === 'direct' && attempt.applicationId === by.applicationId;
  return attempt.flow === 'hosted' && attempt.requesterBrowserHash !== null && digestsEqual(attempt.requesterBrowserHash, by.browserHash);
}
