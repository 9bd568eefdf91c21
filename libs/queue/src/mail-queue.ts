/** The queue auth-api puts e-mails on and mail-worker consumes. */
export const MAIL_QUEUE = 'mail';

/** Job names on the mail queue. */
export const LOGIN_LINK_JOB = 'login-link';

/**
 * Payload of a `login-link` job: ids only. The worker reads the attempt (address, sentence,
 * translations, sealed link token) from Postgres, so a job never carries a secret and a
 * re-queued job is identical to the original.
 */
export interface LoginLinkJob {
  version: 1;
  loginAttemptId: string;
  /** The id of the HTTP request that created the attempt, for log correlation. */
  requestId: string | null;
}
