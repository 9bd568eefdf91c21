import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { MailQueueModule } from '@sesame/queue';
import { PasskeyCeremony } from './passkey-ceremony';

/** The passkey ceremonies' shared steps, for the hosted page's and applications' own pages. */
@Module({
  imports: [RepositoriesModule, MailQueueModule],
  providers: [PasskeyCeremony],
  exports: [PasskeyCeremony],
})
export class PasskeysModule {}
