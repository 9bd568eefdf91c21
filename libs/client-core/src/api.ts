import { providerError, SesameHttp } from './http';

/** The signed-in user, from Sesame's /v1/userinfo. */
export interface SesameUser {
  /** The user's id (the `sub` claim). */
  id: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
  organizationId: string;
  /** When the user's record last changed. */
  updatedAt: Date;
}

/** Sesame's answer to a code exchange (POST /v1/verify). */
export interface TokenResponse {
  access_token: string;
  token_type: string;
  /** Seconds until the access token expires. */
  expires_in: number;
  /** When the access token expires, ISO 8601. */
  expires_at: string;
  id_token?: string;
}

/** Sesame's /v1/userinfo answer. */
export interface UserInfoResponse {
  sub: string;
  email: string;
  email_verified: boolean;
  /** Absent when the user has no name (OpenID Connect Core §5.3.2: claims without a value are omitted). */
  name?: string;
  organization_id: string;
  /** Seconds since the epoch. */
  updated_at: number;
}

/**
 * How the application proves who it is: a web application with its secret in an Authorization
 * header, a native one (no secret, PKCE proves the login) with client_id in the form.
 */
export interface ClientCredentials {
  headers: Record<string, string>;
  form: Record<string, string>;
}

/** The token endpoints both SDKs call: code exchange, userinfo and revocation. */
export class SesameApi {
  constructor(
    readonly http: SesameHttp,
    readonly credentials: ClientCredentials,
  ) {}

  /** Exchanges an authorization code (RFC 6749 §4.1.3) with its PKCE verifier, if the login had one. */
  async exchangeCode(
    grant: { code: string; redirectUri: string; verifier?: string },
    extra: Record<string, string | undefined> = {},
  ): Promise<TokenResponse> {
    const form = {
      grant_type: 'authorization_code',
      code: grant.code,
      redirect_uri: grant.redirectUri,
      code_verifier: grant.verifier,
      ...extra,
      ...this.credentials.form,
    };
    return (await this.http.postForm('/v1/verify', form, this.credentials.headers)).body as TokenResponse;
  }

  /** The user of an access token, or null when Sesame no longer accepts it (401). */
  async user(accessToken: string): Promise<SesameUser | null> {
    const answer = await this.http.sendRaw('/v1/userinfo', { method: 'GET', headers: { authorization: `Bearer ${accessToken}` } });
    if (answer.status === 401) return null;
    if (answer.status >= 400) throw providerError(answer);
    return userOf(answer.body as UserInfoResponse);
  }

  /** Revokes an access token (RFC 7009). */
  async revoke(accessToken: string): Promise<void> {
    await this.http.postForm(
      '/v1/revoke',
      { token: accessToken, token_type_hint: 'access_token', ...this.credentials.form },
      this.credentials.headers,
    );
  }
}

export function userOf(info: UserInfoResponse): SesameUser {
  return {
    id: info.sub,
    email: info.email,
    emailVerified: info.email_verified,
    name: info.name ?? null,
    organizationId: info.organization_id,
    updatedAt: new Date(info.updated_at * 1000),
  };
}
