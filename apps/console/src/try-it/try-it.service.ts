import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { problem, ProblemException, relayedProblem, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { ManagementApi, sesameUnavailable, UpstreamRequest } from '../management/management-api';
import { SesameEndpointsResponse, TryItResponse } from './try-it.dto';

const TIMEOUT_MS = 10_000;
/** Plans whose web applications may use direct authentication (the others use the hosted page). */
const DIRECT_PLANS = new Set(['pro', 'enterprise']);

interface Application {
  type: 'web' | 'android' | 'ios' | 'desktop';
  clientId: string;
  clientSecret: string | null;
  callbackUrls: string[];
}

export interface Tryer {
  token: string;
  email: string;
  tenantId: string;
  plan: string;
  role: 'viewer' | 'admin' | 'owner';
  requestId: string | null;
  clientIp: string;
}

/**
 * "Try it" on an application's integration page: a real login for that application, sent to the
 * member's own address, so they see the integration work before writing code. The application is
 * read with the member's token (a viewer gets no secret, so cannot); the login is started as the
 * application itself would: direct authentication where its plan and type allow, else the hosted page.
 */
@Injectable()
export class TryItService {
  private readonly logger = new Logger(TryItService.name);
  private readonly v1: string;
  private readonly publicV1: string;

  constructor(
    private readonly management: ManagementApi,
    @Inject(SESAME_CONFIG) config: SesameConfig,
  ) {
    this.v1 = `${config.console.sesameUrl}/v1`;
    this.publicV1 = `${config.http.publicBaseUrl}/v1`;
  }

  endpoints(): SesameEndpointsResponse {
    const issuer = this.publicV1;
    return {
      issuer,
      discovery: `${issuer}/.well-known/openid-configuration`,
      jwks: `${issuer}/.well-known/jwks.json`,
      authorize: `${issuer}/authorize`,
      authenticateDirect: `${issuer}/authenticate_direct`,
      verify: `${issuer}/verify`,
      userinfo: `${issuer}/userinfo`,
    };
  }

  async tryIt(tryer: Tryer, organizationId: string, applicationId: string): Promise<TryItResponse> {
    // It uses the application's secret, which viewers may not.
    if (tryer.role === 'viewer') throw problem('insufficient_role', 'Trying a login needs the admin or owner role');
    const path = `organization/${organizationId}/application/${applicationId}`;
    const application = await this.read<Application>(tryer, path);
    const redirectUri = application.callbackUrls[0] ?? (await this.whitelistCallback(tryer, organizationId, application));
    const state = randomBytes(16).toString('base64url');
    // The try ends at the application's callback; nobody exchanges its code, so the verifier is dropped.
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    if (application.type === 'web' && DIRECT_PLANS.has(tryer.plan)) {
      // Reading the secret is the member's own audited read, which wants a recent sign-in like any other.
      const { clientSecret } = await this.read<Application>(tryer, `${path}?include=secret`);
      const attempt = await this.authenticateDirect(
        tryer,
        { ...application, clientSecret },
        { email: tryer.email, redirect_uri: redirectUri, state, code_challenge: challenge, code_challenge_method: 'S256' },
      );
      return {
        mode: 'direct',
        email: tryer.email,
        loginAttemptId: attempt.loginAttemptId,
        sentence: attempt.sentence,
        approvalNumber: attempt.approvalNumber,
        hostedUrl: null,
        redirectUri,
      };
    }
    const hosted = new URL(`${this.publicV1}/authorize`);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: application.clientId,
      redirect_uri: redirectUri,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      login_hint: tryer.email,
    })) {
      hosted.searchParams.set(name, value);
    }
    return {
      mode: 'hosted',
      email: tryer.email,
      loginAttemptId: null,
      sentence: null,
      approvalNumber: null,
      hostedUrl: hosted.href,
      redirectUri,
    };
  }

  /** A web application without callback URLs returns to an origin of the organization's whitelist. */
  private async whitelistCallback(tryer: Tryer, organizationId: string, application: Application): Promise<string> {
    const organization =
      application.type === 'web' ? await this.read<{ whitelistDomains: string[] }>(tryer, `organization/${organizationId}`) : null;
    const origin = organization?.whitelistDomains[0];
    if (!origin)
      throw problem(
        'no_callback_url',
        'Add a callback URL (or, for a web application, a whitelist domain to the organization) before trying a login',
      );
    return `${origin}/`;
  }

  /** A management API answer as the member gets it; a refusal is passed on as it is. */
  private async read<T>(tryer: Tryer, path: string): Promise<T> {
    const request: UpstreamRequest = {
      method: 'GET',
      path,
      token: tryer.token,
      tenantId: tryer.tenantId,
      body: undefined,
      requestId: tryer.requestId,
      clientIp: tryer.clientIp,
    };
    const answer = await this.management.send(request);
    if (answer.status === 200) return JSON.parse(answer.body) as T;
    throw problemFrom(answer.status, answer.body);
  }

  private async authenticateDirect(
    tryer: Tryer,
    application: Application,
    body: Record<string, string>,
  ): Promise<{ loginAttemptId: string; sentence: string; approvalNumber: string }> {
    let response: Response;
    try {
      response = await fetch(`${this.v1}/authenticate_direct`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(application.clientId)}:${encodeURIComponent(application.clientSecret!)}`).toString('base64')}`,
          'content-type': 'application/json',
          'x-forwarded-for': tryer.clientIp,
          ...(tryer.requestId ? { 'x-request-id': tryer.requestId } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      this.logger.warn(`The auth API could not be reached: ${(error as Error).message}`);
      throw sesameUnavailable();
    }
    const answer = (await response.json().catch(() => ({}))) as Record<string, string>;
    if (response.ok) return { loginAttemptId: answer.loginAttemptId, sentence: answer.sentence, approvalNumber: answer.approvalNumber };
    if (answer.allowedDate) {
      throw problem('too_early', `A login link was sent to this address moments ago; try again after ${answer.allowedDate}`, {
        extensions: { allowedDate: answer.allowedDate },
      });
    }
    throw relayedProblem(
      response.status >= 500 ? 502 : 400,
      answer.error ?? 'try_failed',
      answer.error_description ?? `Sesame refused the try (${response.status})`,
    );
  }
}

/** A management API problem (RFC 9457) as this app's own. */
function problemFrom(status: number, body: string): ProblemException {
  let problem: { code?: string; detail?: string } = {};
  try {
    problem = JSON.parse(body) as typeof problem;
  } catch {
    // Not problem details: the generic message below.
  }
  if (status >= 500) return sesameUnavailable();
  return relayedProblem(status, problem.code ?? 'try_failed', problem.detail ?? `The management API answered ${status}`);
}
