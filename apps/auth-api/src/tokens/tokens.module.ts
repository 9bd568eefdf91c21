import { Module } from '@nestjs/common';
import { secretBoxProvider } from '@sesame/common';
import { ClientsModule } from '../clients/clients.module';
import { AccessTokensService } from './access-tokens.service';
import { AuthorizationCodeService } from './authorization-code.service';
import { DiscoveryController } from './discovery.controller';
import { IdTokenService } from './id-token.service';
import { SigningKeysService } from './signing-keys.service';
import { TokenExchangeService } from './token-exchange.service';
import { TokensController } from './tokens.controller';

/** Codes, the token exchange, userinfo, revocation, introspection, metadata and signing keys. */
@Module({
  imports: [ClientsModule],
  controllers: [TokensController, DiscoveryController],
  providers: [AuthorizationCodeService, TokenExchangeService, AccessTokensService, IdTokenService, SigningKeysService, secretBoxProvider],
  exports: [AuthorizationCodeService, SigningKeysService],
})
export class TokensModule {}
