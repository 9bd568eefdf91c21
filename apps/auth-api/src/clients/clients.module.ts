import { Module } from '@nestjs/common';
import { ClientAuthModule } from '@sesame/guards';
import { ClientContextRepository } from './client-context.repository';
import { StoredRedirectCheck } from './stored-redirect-check';

/** Client authentication and the application/organization context of the login flow. */
@Module({
  imports: [ClientAuthModule],
  providers: [ClientContextRepository, StoredRedirectCheck],
  exports: [ClientAuthModule, ClientContextRepository, StoredRedirectCheck],
})
export class ClientsModule {}
