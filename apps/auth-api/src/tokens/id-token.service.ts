import { Inject, Injectable } from '@nestjs/common';
import { SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { CompactEncrypt, SignJWT } from 'jose';
import { ID_TOKEN_ALGORITHM, SigningKeysService } from './signing-keys.service';

export interface IdTokenSubject {
  userId: string;
  email: string;
  emailVerified: boolean;
  organizationId: string;
  authTime: Date;
}

export interface IdTokenAudience {
  clientId: string;
  /** SHA-256 of the client secret: set for web apps, whose id_token is then encrypted with it. */
  clientSecretHash: Buffer | null;
}

/**
 * id_tokens: a JWT signed with the service's ES256 key; for web apps then encrypted as a compact
 * JWE (`dir`, `A256GCM`, `cty: JWT`) whose key is the SHA-256 of the client secret (OpenID
 * Connect Core §2 and §10.2), so the client secret decodes it. Native apps get the signed JWT.
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
    const jwt = await new SignJWT({
      email: subject.email,
      email_verified: subject.emailVerified,
      org_id: subject.organizationId,
      auth_time: Math.floor(subject.authTime.getTime() / 1000),
    })
      .setProtectedHeader({ alg: ID_TOKEN_ALGORITHM, kid: key.kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setSubject(subject.userId)
      .setAudience(audience.clientId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.config.auth.idTokenTtlSeconds)
      .sign(key.privateKey);
    if (!audience.clientSecretHash) return jwt;
    return new CompactEncrypt(new TextEncoder().encode(jwt))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: 'JWT' })
      .encrypt(new Uint8Array(audience.clientSecretHash));
  }
}
