import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiPublic } from '@sesame/common';
import { IdTokenService } from './id-token.service';
import { SigningKeysService } from './signing-keys.service';

/** RFC 8414 metadata (also served as OpenID Connect discovery) and the id_token signing keys. */
@ApiTags('Discovery')
@ApiPublic()
@Controller({ path: '.well-known', version: '1' })
export class DiscoveryController {
  constructor(
    private readonly idTokens: IdTokenService,
    private readonly keys: SigningKeysService,
  ) {}

  @Get('oauth-authorization-server')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'Authorization server metadata (RFC 8414)' })
  @ApiOkResponse({ description: 'Metadata document.' })
  metadata() {
    return this.document();
  }

  @Get('openid-configuration')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'The same metadata at the OpenID Connect discovery location' })
  @ApiOkResponse({ description: 'Metadata document.' })
  openIdConfiguration() {
    return this.document();
  }

  @Get('jwks.json')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'Public keys that sign id_tokens (JWK Set)' })
  @ApiOkResponse({ description: 'JWK Set.' })
  async jwks() {
    return { keys: await this.keys.publicKeys() };
  }

  private document() {
    const issuer = this.idTokens.issuerUrl;
    const clientAuth = ['client_secret_basic', 'client_secret_post', 'none'];
    return {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/verify`,
      userinfo_endpoint: `${issuer}/userinfo`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      revocation_endpoint: `${issuer}/revoke`,
      introspection_endpoint: `${issuer}/introspect`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: clientAuth,
      revocation_endpoint_auth_methods_supported: clientAuth,
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: ['openid', 'email'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
      id_token_encryption_alg_values_supported: ['dir'],
      id_token_encryption_enc_values_supported: ['A256GCM'],
      claims_supported: ['iss', 'sub', 'aud', 'iat', 'exp', 'auth_time', 'nonce', 'email', 'email_verified', 'org_id', 'name'],
      ui_locales_supported: ['en', 'de', 'fr', 'es'],
      service_documentation: `${issuer}/docs`,
    };
  }
}
