import { Inject, Injectable } from '@nestjs/common';
import {
  AUTOLOGIN_CONTINUE_PARAMETER,
  Clock,
  isSecretShaped,
  randomSecret,
  SESAME_CONFIG,
  SesameConfig,
  sha256,
  withQuery,
} from '@sesame/common';
import { ApplicationRepository, LoginAttemptRepository, LoginFlow, Transactions } from '@sesame/entities';
import { EntityManager } from 'typeorm';
import { StoredRedirectCheck } from '../clients/stored-redirect-check';
import { AuthorizationCodeService } from '../tokens/authorization-code.service';
import { autologinTargets } from './autologin-walk';
import { unknownLink } from './link-errors';

/** How long after the login the walk may continue. */
const WALK_SECONDS = 600;

/** The cookie that ties a walk to the browser that pressed Continue. */
export const WALK_COOKIE = 'sesame_walk';

export interface CompletedLogin {
  attemptId: string;
  applicationId: string;
  userId: string;
  redirectUri: string;
  state: string;
  codeChallenge: string | null;
  nonce: string | null;
  flow: LoginFlow;
  authTime: Date;
}

/** The first stop of a walk, and the value of the cookie that lets this browser (and only it) continue. */
export interface WalkStart {
  url: string;
  cookie: string;
}

/**
 * Autologin: after a login in an organization with `autologin`, the browser visits the callback
 * of every other whitelist domain (each with a fresh code and the same state, plus a one-time
 * continuation URL) and ends at the original redirect_uri, so the user is signed in on all of
 * them. Only the browser that pressed Continue can continue the walk (a cookie it got then).
 * The protocol is described in docs/autologin.md.
 */
@Injectable()
export class AutologinService {
  private readonly continueUrl: string;
  private readonly cookieAttributes: string;

  constructor(
    private readonly transactions: Transactions,
    private readonly attempts: LoginAttemptRepository,
    private readonly applications: ApplicationRepository,
    private readonly codes: AuthorizationCodeService,
    private readonly redirects: StoredRedirectCheck,
    private readonly clock: Clock,
    @Inject(SESAME_CONFIG) config: SesameConfig,
  ) {
    this.continueUrl = `${config.http.publicBaseUrl}/v1/autologin`;
    const secure = config.http.publicBaseUrl.startsWith('https:') ? '; Secure' : '';
    // Lax: the walk comes back to Sesame as top-level GET navigations from the applications' domains.
    this.cookieAttributes = `Path=/${config.http.apiPrefix}/v1/autologin; HttpOnly; SameSite=Lax; Max-Age=${WALK_SECONDS}${secure}`;
  }

  /** The first stop of the walk, or null when the login needs none (autologin off, native app, single domain). */
  async begin(manager: EntityManager, login: CompletedLogin, now: Date): Promise<WalkStart | null> {
    const settings = await this.applications.findAutologinSettings(manager, login.applicationId);
    if (!settings?.autologin || settings.type !== 'web') return null;
    const targets = autologinTargets(login.redirectUri, {
      type: 'web',
      whitelistDomains: settings.whitelistDomains,
      callbackUrls: settings.callbackUrls,
    });
    if (targets.length === 0) return null;
    const browser = randomSecret();
    await this.attempts.setWalkBrowser(manager, login.attemptId, sha256(browser));
    return { url: await this.visit(manager, login, targets, now), cookie: `${WALK_COOKIE}=${browser}; ${this.cookieAttributes}` };
  }

  /** GET /v1/autologin: the next stop, or the original redirect_uri with its own code at the end. */
  async continue(token: unknown, browser: string | undefined): Promise<string> {
    if (!isSecretShaped(token) || !isSecretShaped(browser)) throw unknownWalk();
    const now = this.clock.now();
    return this.transactions.run(async (manager) => {
      const walk = await this.attempts.claimWalk(manager, sha256(token), sha256(browser), new Date(now.getTime() - WALK_SECONDS * 1000));
      if (!walk) throw unknownWalk();
      const login: CompletedLogin = {
        attemptId: walk.id,
        applicationId: walk.applicationId,
        userId: walk.userId,
        redirectUri: walk.redirectUri,
        state: walk.state,
        codeChallenge: walk.codeChallenge,
        nonce: walk.nonce,
        flow: walk.flow,
        authTime: walk.usedAt,
      };
      // The stops were chosen at login; domains removed since are skipped, and so is the end if it was.
      const remaining = await this.redirects.stillAllowed(manager, login.applicationId, walk.remaining);
      if (remaining.length > 0) return this.visit(manager, login, remaining, now);
      await this.redirects.require(manager, login.applicationId, login.redirectUri);
      const code = await this.codes.issue(manager, { ...login, origin: login.flow }, now);
      return withQuery(login.redirectUri, { code, state: login.state });
    });
  }

  /** Sends the browser to `targets[0]` with a code bound to it, and remembers the rest behind a fresh one-time token. */
  private async visit(manager: EntityManager, login: CompletedLogin, targets: string[], now: Date): Promise<string> {
    const [target, ...remaining] = targets;
    const token = randomSecret();
    await this.attempts.setWalk(manager, login.attemptId, login.userId, sha256(token), remaining);
    // Walked domains did not start the login, so they have neither a PKCE verifier nor a nonce: their
    // codes are marked as walk codes instead. The original redirect_uri's code keeps its challenge and nonce.
    const code = await this.codes.issue(
      manager,
      {
        applicationId: login.applicationId,
        userId: login.userId,
        redirectUri: target,
        codeChallenge: null,
        nonce: null,
        origin: 'autologin',
        authTime: login.authTime,
      },
      now,
    );
    return withQuery(target, { code, state: login.state, [AUTOLOGIN_CONTINUE_PARAMETER]: `${this.continueUrl}?token=${token}` });
  }
}

const unknownWalk = () => unknownLink('This sign-in continuation is not valid, has expired, or was started in another browser');
