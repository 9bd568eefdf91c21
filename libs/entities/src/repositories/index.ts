export * from './email-throttle.repository';
export * from './login-attempt.repository';
export * from './login-repositories.module';
