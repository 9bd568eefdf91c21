import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { ClientsModule } from '../clients/clients.module';
import { DirectAuthModule } from '../direct-auth/direct-auth.module';
import { LoginPageController } from './login-page.controller';
import { LoginPageService } from './login-page.service';

/** The hosted login page, /v1/authorize. */
@Module({
  imports: [ClientsModule, DirectAuthModule, RepositoriesModule],
  controllers: [LoginPageController],
  providers: [LoginPageService],
})
export class LoginPageModule {}
