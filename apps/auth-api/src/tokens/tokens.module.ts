import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { ClientsModule } from '../clients/clients.module';
import { AccessTokensService } from './access-tokens.service';
import { AuthorizationCodeService } from './authorization-code.service';
import { DiscoveryController } from './discovery.controller';
import { FailedLookupLimiter } from './failed-lookup-limiter';
import { IdTokenService } from './id-token.service';
import { SigningKeysModule } from './signing-keys.module';
import { TokenExchangeService } from './token-exchange.service';
import { TokensController } from './tokens.controller';

/** Codes, the token exchange, userinfo, revocation, introspection, metadata and signing keys. */
@Module({
  imports: [RepositoriesModule, ClientsModule, SigningKeysModule],
  controllers: [TokensController, DiscoveryController],
  providers: [AuthorizationCodeService, TokenExchangeService, AccessTokensService, IdTokenService, FailedLookupLimiter],
  exports: [AuthorizationCodeService, AccessTokensService],
})
export class TokensModule {}
