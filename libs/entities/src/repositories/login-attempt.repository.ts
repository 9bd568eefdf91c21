import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApprovalNumbers, LoginCodes, PageQuery, SecretBox, sha256 } from '@sesame/common';
import { DataSource, EntityManager } from 'typeorm';
import { deleteRows } from './batch-delete';
import { keysetPage } from './keyset-page';
import { LoginAttemptStatus, LoginFlow, Translations } from '../entities/login-attempt.entity';

/**
 * The one rule of a usable attempt: pending and unexpired. Every statement below that reads or
 * claims a usable attempt says it through this fragment (`now` is the statement's parameter).
 */
const live = (now: string, alias = '') => `${alias}status = 'pending' AND ${alias}expires_at > ${now}`;

/**
 * The status a caller sees, as SQL (the same rule as effectiveStatus): a pending attempt that is
 * not live any more is expired, even before the sweeper records it.
 */
const reportedStatus = (now: string, alias = '') =>
  `CASE WHEN ${alias}status = 'pending' AND ${alias}expires_at <= ${now} THEN 'expired' ELSE ${alias}status::text END`;

/** The status a caller sees: a pending attempt past its expiry is expired, even before the sweeper records it. */
export function effectiveStatus(attempt: { status: LoginAttemptStatus; expiresAt: Date }, now: Date): LoginAttemptStatus {
  return attempt.status === 'pending' && attempt.expiresAt <= now ? 'expired' : attempt.status;
}

/**
 * The sealed-token convention: the link token is sealed with SECRETS_KEY and bound to its own
 * SHA-256 (base64url) as associated data, so a sealed value cannot be moved to another attempt.
 * It is erased whenever the attempt stops being usable (used, withdrawn, expired).
 */
export function linkTokenAssociatedData(tokenHash: Buffer): string {
  return tokenHash.toString('base64url');
}

/** Wrong codes an attempt survives: the fifth locks it, its link too. */
export const CODE_FAILURE_LIMIT = 5;

export interface NewLoginAttempt {
  organizationId: string;
  applicationId: string;
  email: string;
  sentence: string;
  state: string;
  redirectUri: string;
  codeChallenge: string | null;
  nonce: string | null;
  flow: LoginFlow;
  translations: Translations | null;
  requestId: string | null;
  requesterUserAgent: string | null;
  requesterIp: string | null;
  requesterBrowserHash: Buffer | null;
  /** The approval number the requesting side shows; only its HMAC is kept. */
  approvalNumber: string;
  expiresAt: Date;
  createdAt: Date;
}

/** What completing an attempt needs. */
export interface ClaimedAttempt {
  id: string;
  organizationId: string;
  applicationId: string;
  email: string;
  state: string;
  redirectUri: string;
  codeChallenge: string | null;
  nonce: string | null;
  flow: LoginFlow;
  requesterBrowserHash: Buffer | null;
}

export interface AttemptSummary {
  id: string;
  applicationId: string;
  organizationId: string;
  email: string;
  sentence: string;
  state: string;
  redirectUri: string;
  status: LoginAttemptStatus;
  expiresAt: Date;
  flow: LoginFlow;
  requesterBrowserHash: Buffer | null;
}

/** The link page's view of an attempt. */
export interface LinkView {
  id: string;
  status: LoginAttemptStatus;
  createdAt: Date;
  requesterUserAgent: string | null;
  requesterIp: string | null;
  requesterBrowserHash: Buffer | null;
  /** Whether the attempt can still be approved from another device (no wrong number typed yet). */
  approvalOpen: boolean;
  flow: LoginFlow;
  expiresAt: Date;
  sentence: string;
  email: string;
  redirectUri: string;
  organizationName: string;
  applicationName: string;
  autologin: boolean;
  whitelistDomains: string[];
}

/** A login e-mail ready to send, its link token unsealed and its code derived. */
export interface DeliverableAttempt {
  id: string;
  email: string;
  sentence: string;
  translations: Translations | null;
  token: string;
  code: string;
  expiresAt: Date;
  createdAt: Date;
  organizationName: string;
  tenantId: string;
  /** The random part of the e-mail's Message-ID. */
  messageId: string;
}

/** An autologin walk claimed for its next stop. */
export interface ClaimedWalk extends Omit<ClaimedAttempt, 'organizationId' | 'email' | 'requesterBrowserHash'> {
  userId: string;
  usedAt: Date;
  remaining: string[];
}

/** An attempt locked for a code check, in the caller's transaction. */
export interface CodeCheck extends AttemptSummary {
  tokenHash: Buffer;
  codeVerifier: Buffer | null;
}

/** An attempt locked for an approval from another device, in the caller's transaction. */
export interface ApprovalCheck extends AttemptSummary {
  tokenHash: Buffer;
  approvalVerifier: Buffer | null;
}

/** What the management API's login activity narrows a list to. */
export interface LoginActivityFilter {
  email: string | null;
  applicationId: string | null;
  /** The reported status (see reportedStatus). */
  status: LoginAttemptStatus | null;
  from: Date | null;
  to: Date | null;
}

/** An attempt as the management API's login activity shows it. */
export interface LoginActivityItem {
  id: string;
  applicationId: string;
  applicationName: string;
  email: string;
  /** The attempt's status as callers see it: a pending attempt past its expiry is expired. */
  status: LoginAttemptStatus;
  mailSuppressed: boolean;
  createdAt: Date;
  expiresAt: Date;
  mailQueuedAt: Date | null;
  mailSentAt: Date | null;
  mailFailedAt: Date | null;
  usedAt: Date | null;
  /** How the login was made: an e-mailed link or code (or an approval), or a passkey on the hosted page (no e-mail). */
  method: LoginMethod;
}

export const LOGIN_METHODS = ['email', 'passkey'] as const;
export type LoginMethod = (typeof LOGIN_METHODS)[number];

type Row = Record<string, unknown>;

const CLAIMED_COLUMNS =
  'id, organization_id, application_id, email, state, redirect_uri, code_challenge, nonce, flow, requester_browser_hash';

function claimed(row: Row): ClaimedAttempt {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    applicationId: row.application_id as string,
    email: row.email as string,
    state: row.state as string,
    redirectUri: row.redirect_uri as string,
    codeChallenge: row.code_challenge as string | null,
    nonce: row.nonce as string | null,
    flow: row.flow as LoginFlow,
    requesterBrowserHash: row.requester_browser_hash as Buffer | null,
  };
}

function summary(row: Row): AttemptSummary {
  return {
    id: row.id as string,
    applicationId: row.application_id as string,
    organizationId: row.organization_id as string,
    email: row.email as string,
    sentence: row.sentence as string,
    state: row.state as string,
    redirectUri: row.redirect_uri as string,
    status: row.status as LoginAttemptStatus,
    expiresAt: row.expires_at as Date,
    flow: row.flow as LoginFlow,
    requesterBrowserHash: (row.requester_browser_hash as Buffer | null) ?? null,
  };
}

/** The columns `summary` reads. */
const SUMMARY_COLUMNS =
  'id, application_id, organization_id, email, sentence, state, redirect_uri, status, expires_at, flow, requester_browser_hash';

/**
 * All SQL about login attempts, for auth-api and the mail worker alike. Methods that take an
 * EntityManager run in the caller's transaction. Conditional UPDATEs are wrapped in a CTE
 * because TypeORM reshapes the result of a bare UPDATE … RETURNING.
 */
@Injectable()
export class LoginAttemptRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly box: SecretBox,
    private readonly codes: LoginCodes,
    private readonly approvalNumbers: ApprovalNumbers,
  ) {}

  /**
   * Inserts the attempt with its link token sealed and its code's and approval number's verifiers;
   * null when its sentence is taken by another live attempt. Its e-mail is suppressed when the
   * address is a blocked user of the organization (looked up in the same statement: the caller
   * answers a blocked user exactly as anyone else, and only the mail worker tells them apart).
   */
  async insert(manager: EntityManager, attempt: NewLoginAttempt, token: string): Promise<{ id: string; tokenHash: Buffer } | null> {
    const tokenHash = sha256(token);
    const rows: { id: string }[] = await manager.query(
      `INSERT INTO login_attempt (organization_id, application_id, email, token_hash, link_token_encrypted, sentence, state, redirect_uri,
                                  code_challenge, translations, mail_suppressed, request_id, expires_at, created_at, nonce, flow, code_verifier,
                                  requester_user_agent, requester_browser_hash, requester_ip, approval_verifier)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
               EXISTS (SELECT 1 FROM "user" WHERE organization_id = $1 AND email = $3::varchar AND blocked),
               $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
       ON CONFLICT DO NOTHING RETURNING id`,
      [
        attempt.organizationId,
        attempt.applicationId,
        attempt.email,
        tokenHash,
        this.box.encrypt(token, linkTokenAssociatedData(tokenHash)),
        attempt.sentence,
        attempt.state,
        attempt.redirectUri,
        attempt.codeChallenge,
        attempt.translations,
        attempt.requestId,
        attempt.expiresAt,
        attempt.createdAt,
        attempt.nonce,
        attempt.flow,
        this.codes.verifier(tokenHash, this.codes.codeFor(token)),
        attempt.requesterUserAgent,
        attempt.requesterBrowserHash,
        attempt.requesterIp,
        this.approvalNumbers.verifier(tokenHash, attempt.approvalNumber),
      ],
    );
    return rows[0] ? { id: rows[0].id, tokenHash } : null;
  }

  /** The e-mail's job is on the queue (the first time; the sweeper's re-queues use markRequeued). */
  /** Records that the e-mails of these attempts are queued (one statement for the attempts of concurrent requests). */
  async markQueued(ids: string[], now: Date): Promise<void> {
    await this.dataSource.query('UPDATE login_attempt SET mail_queued_at = $2 WHERE id = ANY($1::uuid[]) AND mail_queued_at IS NULL', [
      ids,
      now,
    ]);
  }

  async markRequeued(id: string, now: Date): Promise<void> {
    await this.dataSource.query('UPDATE login_attempt SET mail_queued_at = $2 WHERE id = $1', [id, now]);
  }

  /** An attempt whose e-mail could not be queued: it expires at once, its sealed token erased. */
  async withdraw(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`UPDATE login_attempt SET status = 'expired', link_token_encrypted = NULL WHERE id = $1`, [id]);
  }

  /** An attempt as its application sees it; null when unknown or another application's. */
  async findForApplication(applicationId: string, id: string): Promise<AttemptSummary | null> {
    const rows: Row[] = await this.dataSource.query(`SELECT ${SUMMARY_COLUMNS} FROM login_attempt WHERE id = $1 AND application_id = $2`, [
      id,
      applicationId,
    ]);
    return rows[0] ? summary(rows[0]) : null;
  }

  async findByTokenHash(manager: EntityManager, tokenHash: Buffer): Promise<AttemptSummary | null> {
    const rows: Row[] = await manager.query(`SELECT ${SUMMARY_COLUMNS} FROM login_attempt WHERE token_hash = $1`, [tokenHash]);
    return rows[0] ? summary(rows[0]) : null;
  }

  /** Read-only, for the page a link opens. */
  async findLinkView(tokenHash: Buffer): Promise<LinkView | null> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT a.id, a.status, a.created_at, a.requester_user_agent, a.requester_ip, a.requester_browser_hash, a.approval_verifier IS NOT NULL AS approval_open, a.flow,
              a.expires_at, a.sentence, a.email, a.redirect_uri, o.name AS organization_name, p.name AS application_name,
              o.autologin, o.whitelist_domains
         FROM login_attempt a
         JOIN organization o ON o.id = a.organization_id
         JOIN application p ON p.id = a.application_id
        WHERE a.token_hash = $1`,
      [tokenHash],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id as string,
      status: row.status as LoginAttemptStatus,
      createdAt: row.created_at as Date,
      requesterUserAgent: row.requester_user_agent as string | null,
      requesterIp: row.requester_ip as string | null,
      requesterBrowserHash: row.requester_browser_hash as Buffer | null,
      approvalOpen: row.approval_open as boolean,
      flow: row.flow as LoginFlow,
      expiresAt: row.expires_at as Date,
      sentence: row.sentence as string,
      email: row.email as string,
      redirectUri: row.redirect_uri as string,
      organizationName: row.organization_name as string,
      applicationName: row.application_name as string,
      autologin: row.autologin as boolean,
      whitelistDomains: row.whitelist_domains as string[],
    };
  }

  /**
   * Uses the attempt of a link: the conditional UPDATE is the claim, so of concurrent requests
   * exactly one gets the attempt back (and the sealed token is erased with it).
   */
  async claimByTokenHash(manager: EntityManager, tokenHash: Buffer, now: Date): Promise<ClaimedAttempt | null> {
    const rows: Row[] = await manager.query(
      `WITH claimed AS (
         UPDATE login_attempt SET status = 'completed', used_at = $2, link_token_encrypted = NULL
          WHERE token_hash = $1 AND ${live('$2')}
          RETURNING ${CLAIMED_COLUMNS})
       SELECT * FROM claimed`,
      [tokenHash, now],
    );
    return rows[0] ? claimed(rows[0]) : null;
  }

  /**
   * Locks an attempt of this application for a code check (of concurrent checks, and of a link
   * used at the same time, one goes first and the others see its outcome).
   */
  async lockForCode(manager: EntityManager, id: string, applicationId: string): Promise<CodeCheck | null> {
    const rows: Row[] = await manager.query(
      `SELECT ${SUMMARY_COLUMNS}, token_hash, code_verifier FROM login_attempt WHERE id = $1 AND application_id = $2 FOR UPDATE`,
      [id, applicationId],
    );
    const row = rows[0];
    if (!row) return null;
    return { ...summary(row), tokenHash: row.token_hash as Buffer, codeVerifier: row.code_verifier as Buffer | null };
  }

  /** Marks the attempt's failure as reported (its `login.failed` is sent once, however often it is refused); false when it already was. */
  async markFailureReported(manager: EntityManager, id: string, at: Date): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      'WITH marked AS (UPDATE login_attempt SET failure_reported_at = $2 WHERE id = $1 AND failure_reported_at IS NULL RETURNING id) SELECT id FROM marked',
      [id, at],
    );
    return rows.length > 0;
  }

  /** Counts a wrong code; the CODE_FAILURE_LIMIT-th locks the attempt and erases its sealed token. Returns the status after. */
  async recordWrongCode(manager: EntityManager, id: string): Promise<LoginAttemptStatus> {
    const rows: { status: LoginAttemptStatus }[] = await manager.query(
      `WITH counted AS (
         UPDATE login_attempt SET code_failures = code_failures + 1,
                status = CASE WHEN code_failures + 1 >= $2 THEN 'locked'::login_attempt_status ELSE status END,
                link_token_encrypted = CASE WHEN code_failures + 1 >= $2 THEN NULL ELSE link_token_encrypted END
          WHERE id = $1 AND status = 'pending'
          RETURNING status)
       SELECT status FROM counted`,
      [id, CODE_FAILURE_LIMIT],
    );
    return rows[0]?.status ?? 'expired';
  }

  /** Uses the attempt by its code: the same claim as the link's, so the two are one credential. */
  async claimById(manager: EntityManager, id: string, now: Date): Promise<ClaimedAttempt | null> {
    const rows: Row[] = await manager.query(
      `WITH claimed AS (
         UPDATE login_attempt SET status = 'completed', used_at = $2, link_token_encrypted = NULL
          WHERE id = $1 AND ${live('$2')}
          RETURNING ${CLAIMED_COLUMNS})
       SELECT * FROM claimed`,
      [id, now],
    );
    return rows[0] ? claimed(rows[0]) : null;
  }

  /**
   * A sign-in with a passkey on the hosted page, recorded as a completed attempt (so login activity,
   * retention and the completion of a login treat it like any other) that never had a link: its
   * token hash is random and nothing is sealed, so no link or code can ever use it.
   */
  async insertPasskeyLogin(
    manager: EntityManager,
    login: Pick<NewLoginAttempt, 'organizationId' | 'applicationId' | 'email' | 'state' | 'redirectUri' | 'codeChallenge' | 'nonce'> & {
      passkeyId: string;
      requestId: string | null;
      requesterUserAgent: string | null;
      requesterIp: string | null;
      now: Date;
      /** How the login started: the hosted page (default), or an application's own page (direct authentication). */
      flow?: LoginFlow;
    },
  ): Promise<ClaimedAttempt> {
    const rows: Row[] = await manager.query(
      `INSERT INTO login_attempt (organization_id, application_id, email, token_hash, sentence, state, redirect_uri, code_challenge, nonce,
                                  flow, status, used_at, expires_at, created_at, request_id, requester_user_agent, requester_ip, passkey_id)
       VALUES ($1, $2, $3, $4, '', $5, $6, $7, $8, $14, 'completed', $9, $9, $9, $10, $11, $12, $13)
       RETURNING ${CLAIMED_COLUMNS}`,
      [
        login.organizationId,
        login.applicationId,
        login.email,
        randomBytes(32),
        login.state,
        login.redirectUri,
        login.codeChallenge,
        login.nonce,
        login.now,
        login.requestId,
        login.requesterUserAgent?.slice(0, 512) ?? null,
        login.requesterIp,
        login.passkeyId,
        login.flow ?? 'hosted',
      ],
    );
    return claimed(rows[0]);
  }

  /** Locks the attempt of a link for a decision taken on its page (approval from another device). */
  async lockForApproval(manager: EntityManager, tokenHash: Buffer): Promise<ApprovalCheck | null> {
    const rows: Row[] = await manager.query(
      `SELECT ${SUMMARY_COLUMNS}, token_hash, approval_verifier FROM login_attempt WHERE token_hash = $1 FOR UPDATE`,
      [tokenHash],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      ...summary(row),
      tokenHash: row.token_hash as Buffer,
      approvalVerifier: row.approval_verifier as Buffer | null,
    };
  }

  /** Approval from another device: the link and the code are used up; the requesting side collects the login. */
  async approve(manager: EntityManager, id: string, now: Date): Promise<boolean> {
    const rows: Row[] = await manager.query(
      `WITH approved AS (
         UPDATE login_attempt SET status = 'approved', used_at = $2, link_token_encrypted = NULL WHERE id = $1 AND ${live('$2')} RETURNING id)
       SELECT id FROM approved`,
      [id, now],
    );
    return rows.length > 0;
  }

  /** A wrong approval number: the attempt can no longer be approved from another device (its link and code still work). */
  async endApproval(manager: EntityManager, id: string): Promise<void> {
    await manager.query('UPDATE login_attempt SET approval_verifier = NULL WHERE id = $1', [id]);
  }

  /**
   * The requesting side collects an approved attempt, once: direct authentication as the
   * application that started it, the hosted page as the browser that asked (its cookie's hash).
   */
  async collectApproved(
    id: string,
    by: { applicationId: string } | { browserHash: Buffer },
    approvedAfter: Date,
    manager: EntityManager,
  ): Promise<ClaimedAttempt | null> {
    const [column, value] = 'applicationId' in by ? ['application_id', by.applicationId] : ['requester_browser_hash', by.browserHash];
    const rows: Row[] = await manager.query(
      `WITH claimed AS (
         UPDATE login_attempt SET status = 'completed'
          WHERE id = $1 AND ${column} = $2 AND status = 'approved' AND used_at > $3
          RETURNING ${CLAIMED_COLUMNS})
       SELECT * FROM claimed`,
      [id, value, approvedAfter],
    );
    return rows[0] ? claimed(rows[0]) : null;
  }

  /** Autologin: the hash of the cookie of the browser that used the link. */
  async setWalkBrowser(manager: EntityManager, id: string, browserHash: Buffer): Promise<void> {
    await manager.query('UPDATE login_attempt SET autologin_browser_hash = $2 WHERE id = $1', [id, browserHash]);
  }

  /** Autologin: the next stop's one-time token and the stops after it. */
  async setWalk(manager: EntityManager, id: string, userId: string, walkHash: Buffer, remaining: string[]): Promise<void> {
    await manager.query('UPDATE login_attempt SET user_id = $2, autologin_walk_hash = $3, autologin_remaining = $4 WHERE id = $1', [
      id,
      userId,
      walkHash,
      remaining,
    ]);
  }

  /** Autologin: takes a walk's continuation token once, for the browser that started the walk, within its time. */
  async claimWalk(manager: EntityManager, walkHash: Buffer, browserHash: Buffer, usedAfter: Date): Promise<ClaimedWalk | null> {
    const rows: Row[] = await manager.query(
      `WITH claimed AS (
         UPDATE login_attempt SET autologin_walk_hash = NULL
          WHERE autologin_walk_hash = $1 AND autologin_browser_hash = $2 AND used_at > $3
          RETURNING id, application_id, user_id, redirect_uri, state, code_challenge, nonce, flow, used_at, autologin_remaining)
       SELECT * FROM claimed`,
      [walkHash, browserHash, usedAfter],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id as string,
      applicationId: row.application_id as string,
      userId: row.user_id as string,
      redirectUri: row.redirect_uri as string,
      state: row.state as string,
      codeChallenge: row.code_challenge as string | null,
      nonce: row.nonce as string | null,
      flow: row.flow as LoginFlow,
      usedAt: row.used_at as Date,
      remaining: row.autologin_remaining as string[],
    };
  }

  /** The management API's login activity: `limit + 1` attempts of the organization after the cursor, newest first, filtered as asked. */
  async listActivity(organizationId: string, filter: LoginActivityFilter, page: PageQuery, now: Date): Promise<LoginActivityItem[]> {
    const params: unknown[] = [organizationId, now];
    let where = 'a.organization_id = $1';
    const and = (condition: string, value: unknown) => {
      params.push(value);
      where += ` AND ${condition} $${params.length}`;
    };
    if (filter.email !== null) and('a.email =', filter.email);
    if (filter.applicationId !== null) and('a.application_id =', filter.applicationId);
    if (filter.status !== null) and(`${reportedStatus('$2', 'a.')} =`, filter.status);
    if (filter.from !== null) and('a.created_at >=', filter.from);
    if (filter.to !== null) and('a.created_at <', filter.to);
    const { after, orderAndLimit } = keysetPage(page, params, 'newest', 'a.');
    return this.dataSource.query(
      `SELECT a.id, a.application_id AS "applicationId", p.name AS "applicationName", a.email, ${reportedStatus('$2', 'a.')} AS status,
              a.mail_suppressed AS "mailSuppressed", a.created_at AS "createdAt", a.expires_at AS "expiresAt", a.mail_queued_at AS "mailQueuedAt",
              a.mail_sent_at AS "mailSentAt", a.mail_failed_at AS "mailFailedAt", a.used_at AS "usedAt",
              CASE WHEN a.passkey_id IS NOT NULL THEN 'passkey' ELSE 'email' END AS method
         FROM login_attempt a JOIN application p ON p.id = a.application_id
        WHERE ${where}${after} ${orderAndLimit}`,
      params,
    );
  }

  /**
   * The mail worker's view: an attempt gets its e-mail only while usable, unsuppressed, and not
   * sent yet (jobs are delivered at least once). The link token comes back unsealed.
   */
  async findDeliverable(id: string, now: Date): Promise<DeliverableAttempt | null> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT a.id, a.email, a.sentence, a.translations, a.token_hash, a.link_token_encrypted, a.expires_at, a.created_at, a.message_id,
              o.name AS organization_name, o.tenant_id
         FROM login_attempt a JOIN organization o ON o.id = a.organization_id
        WHERE a.id = $1 AND ${live('$2', 'a.')} AND a.mail_sent_at IS NULL
          AND NOT a.mail_suppressed AND a.link_token_encrypted IS NOT NULL`,
      [id, now],
    );
    const row = rows[0];
    if (!row) return null;
    const token = this.box.decrypt(row.link_token_encrypted as string, linkTokenAssociatedData(row.token_hash as Buffer));
    return {
      id: row.id as string,
      email: row.email as string,
      sentence: row.sentence as string,
      translations: row.translations as Translations | null,
      token,
      code: this.codes.codeFor(token),
      expiresAt: row.expires_at as Date,
      createdAt: row.created_at as Date,
      organizationName: row.organization_name as string,
      tenantId: row.tenant_id as string,
      messageId: row.message_id as string,
    };
  }

  async markSent(id: string, now: Date): Promise<void> {
    await this.dataSource.query('UPDATE login_attempt SET mail_sent_at = $2 WHERE id = $1 AND mail_sent_at IS NULL', [id, now]);
  }

  /** The worker gave up on the e-mail; returns the attempt's organization the first time, null after. */
  async markMailFailed(id: string, now: Date): Promise<string | null> {
    const rows: { organization_id: string }[] = await this.dataSource.query(
      `WITH failed AS (UPDATE login_attempt SET mail_failed_at = $2 WHERE id = $1 AND mail_sent_at IS NULL AND mail_failed_at IS NULL RETURNING organization_id)
       SELECT organization_id FROM failed`,
      [id, now],
    );
    return rows[0]?.organization_id ?? null;
  }

  /** Records expiry of pending attempts past their time, which frees their sentences and erases their sealed tokens. */
  async expireOverdue(now: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE login_attempt SET status = 'expired', link_token_encrypted = NULL WHERE status = 'pending' AND expires_at <= $1`,
      [now],
    );
  }

  /** Usable attempts created before `createdBefore` whose e-mail was never sent (oldest first). */
  async findUnsent(now: Date, createdBefore: Date, limit: number): Promise<{ id: string; requestId: string | null }[]> {
    const rows: { id: string; request_id: string | null }[] = await this.dataSource.query(
      `SELECT id, request_id FROM login_attempt
        WHERE ${live('$1')} AND mail_sent_at IS NULL AND NOT mail_suppressed AND created_at < $2
        ORDER BY created_at LIMIT $3`,
      [now, createdBefore, limit],
    );
    return rows.map((row) => ({ id: row.id, requestId: row.request_id }));
  }

  /**
   * Retention: attempts made before `before` (long expired or used: a link lives at most a day),
   * at most `limit` of them, skipping rows another transaction holds.
   */
  deleteCreatedBefore(before: Date, limit: number): Promise<number> {
    return deleteRows(
      this.dataSource,
      `DELETE FROM login_attempt WHERE id IN (
         SELECT id FROM login_attempt WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
  }
}
