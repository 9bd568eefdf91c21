import { Module } from '@nestjs/common';
import { ClientAuthModule } from '@sesame/guards';
import { ClientContextRepository } from './client-context.repository';

/** Client authentication and the application/organization context of the login flow. */
@Module({
  imports: [ClientAuthModule],
  providers: [ClientContextRepository],
  exports: [ClientAuthModule, ClientContextRepository],
})
export class ClientsModule {}
