import { Module } from '@nestjs/common';
import { ApprovalNumbers, approvalNumbersProvider, loginCodesProvider, secretBoxProvider } from '@sesame/common';
import { EmailThrottleRepository } from './email-throttle.repository';
import { LoginAttemptRepository } from './login-attempt.repository';

/** The login_attempt and email_throttle repositories, shared by auth-api and the mail worker. */
@Module({
  providers: [LoginAttemptRepository, EmailThrottleRepository, secretBoxProvider, loginCodesProvider, approvalNumbersProvider],
  exports: [LoginAttemptRepository, EmailThrottleRepository, ApprovalNumbers],
})
export class LoginRepositoriesModule {}
