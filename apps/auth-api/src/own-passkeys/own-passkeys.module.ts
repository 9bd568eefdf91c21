import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { TokensModule } from '../tokens/tokens.module';
import { OwnPasskeysController } from './own-passkeys.controller';
import { OwnPasskeysService } from './own-passkeys.service';

/** /v1/passkeys: users list and remove their own passkeys with an access token. */
@Module({
  imports: [RepositoriesModule, TokensModule],
  controllers: [OwnPasskeysController],
  providers: [OwnPasskeysService],
})
export class OwnPasskeysModule {}
