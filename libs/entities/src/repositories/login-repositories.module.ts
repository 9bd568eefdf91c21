import { Module } from '@nestjs/common';
import { loginCodesProvider, secretBoxProvider } from '@sesame/common';
import { EmailThrottleRepository } from './email-throttle.repository';
import { LoginAttemptRepository } from './login-attempt.repository';

/** The login_attempt and email_throttle repositories, shared by auth-api and the mail worker. */
@Module({
  providers: [LoginAttemptRepository, EmailThrottleRepository, secretBoxProvider, loginCodesProvider],
  exports: [LoginAttemptRepository, EmailThrottleRepository],
})
export class LoginRepositoriesModule {}
