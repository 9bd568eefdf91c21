import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { ClientAuthModule } from '@sesame/guards';
import { StoredRedirectCheck } from './stored-redirect-check';

/** Client authentication and the application/organization context of the login flow. */
@Module({
  imports: [ClientAuthModule, RepositoriesModule],
  providers: [StoredRedirectCheck],
  exports: [ClientAuthModule, RepositoriesModule, StoredRedirectCheck],
})
export class ClientsModule {}
