import { Inject, Injectable } from '@nestjs/common';
import { SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { encryptDirA256Gcm, signEs256 } from './compact-jose';
import { ID_TOKEN_ALGORITHM, SigningKeysService } from './signing-keys.service';

export interface IdTokenSubject {
  userId: string;
  email: string;
  emailVerified: boolean;
  organizationId: string;
  authTime: Date;
  /** The nonce of the authentication request (OpenID Connect Core §3.1.2.1), if it had one. */
  nonce: string | null;
}

export interface IdTokenAudience {
  clientId: string;
  /** SHA-256 of the client secret the request authenticated with, for apps that chose encrypted id_tokens; null: signed only. */
  encryptionKey: Buffer | null;
}

/**
 * id_tokens: a JWT signed with the service's ES256 key; for web apps that chose it (the default,
 * `id_token_encrypted_response_alg: dir`) then encrypted as a compact JWE (`dir`, `A256GCM`,
 * `cty: JWT`) whose key is the SHA-256 of the client secret (OpenID Connect Core §2 and §10.2),
 * so the client secret decodes it. Everyone else gets the signed JWT.
 */
@Injectable()
export class IdTokenService {
  private readonly issuer: string;

  constructor(
    private readonly keys: SigningKeysService,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {
    this.issuer = `${config.http.publicBaseUrl}/v1`;
  }

  get issuerUrl(): string {
    return this.issuer;
  }

  async issue(subject: IdTokenSubject, audience: IdTokenAudience, now: Date): Promise<string> {
    const key = await this.keys.signingKey();
    const issuedAt = Math.floor(now.getTime() / 1000);
    const jwt = signEs256(
      { alg: ID_TOKEN_ALGORITHM, kid: key.kid, typ: 'JWT' },
      {
        iss: this.issuer,
        sub: subject.userId,
        aud: audience.clientId,
        iat: issuedAt,
        exp: issuedAt + this.config.auth.idTokenTtlSeconds,
        auth_time: Math.floor(subject.authTime.getTime() / 1000),
        email: subject.email,
        email_verified: subject.emailVerified,
        org_id: subject.organizationId,
        ...(subject.nonce === null ? {} : { nonce: subject.nonce }),
      },
      key.privateKey,
    );
    return audience.encryptionKey ? encryptDirA256Gcm(jwt, audience.encryptionKey, { cty: 'JWT' }) : jwt;
  }
}
