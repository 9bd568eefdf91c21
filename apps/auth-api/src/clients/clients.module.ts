import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { ClientAuthModule } from '@sesame/guards';
import { ClientContexts } from './client-contexts';
import { StoredRedirectCheck } from './stored-redirect-check';

/** Client authentication and the application/organization context of the login flow. */
@Module({
  imports: [ClientAuthModule, RepositoriesModule],
  providers: [ClientContexts, StoredRedirectCheck],
  exports: [ClientAuthModule, RepositoriesModule, ClientContexts, StoredRedirectCheck],
})
export class ClientsModule {}
