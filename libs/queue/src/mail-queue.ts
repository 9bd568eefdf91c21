/** The queue auth-api puts e-mails on and mail-worker consumes. */
export const MAIL_QUEUE = 'mail';

/** Job names on the mail queue. */
export const LOGIN_LINK_JOB = 'login-link';
export const MEMBER_INVITATION_JOB = 'member-invitation';
export const ENDPOINT_DISABLED_JOB = 'endpoint-disabled';
export const PASSKEY_REGISTERED_JOB = 'passkey-registered';

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

/**
 * Payload of a `member-invitation` job: ids only. The worker reads the member (address, role, who
 * invited them) and their tenant from Postgres; a member removed before the job runs gets no mail.
 */
export interface MemberInvitationJob {
  version: 1;
  memberId: string;
  /** The id of the HTTP request that invited the member, for log correlation. */
  requestId: string | null;
}

/**
 * Payload of an `endpoint-disabled` job: the webhook endpoint Sesame disabled. The worker reads the
 * endpoint and the tenant's owners from Postgres; an endpoint enabled again before the job runs
 * gets no mail.
 */
export interface EndpointDisabledJob {
  version: 1;
  endpointId: string;
  requestId: null;
}

/**
 * Payload of a `passkey-registered` job: the passkey just registered on the hosted page. The worker
 * reads the passkey, its user and organization, and where it was registered from (the audit event)
 * from Postgres; a passkey removed before the job runs gets no mail.
 */
export interface PasskeyRegisteredJob {
  version: 1;
  passkeyId: string;
  /** The id of the HTTP request that registered it, for log correlation. */
  requestId: string | null;
}
