import { Module } from '@nestjs/common';
import { secretBoxProvider } from '@sesame/common';
import { RepositoriesModule } from '@sesame/entities';
import { SigningKeysService } from './signing-keys.service';

/** The id_token signing keys, on their own so the CLI can rotate them without the HTTP parts. */
@Module({
  imports: [RepositoriesModule],
  providers: [SigningKeysService, secretBoxProvider],
  exports: [SigningKeysService],
})
export class SigningKeysModule {}
