import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { AccessGuard } from './access.guard';

/** Who may call what (@Access on each route), enforced by AccessGuard, which the app registers after authentication. */
@Module({
  imports: [RepositoriesModule],
  providers: [AccessGuard],
  exports: [AccessGuard],
})
export class AccessModule {}
