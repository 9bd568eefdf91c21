import { Provider } from '@nestjs/common';
import { createSesameClient, SesameClient } from '@sesame/client';
import { SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { CONSOLE_CREDENTIALS, ConsoleCredentials } from '../console-credentials';

/** Where Sesame sends the browser back after the e-mailed link, under CONSOLE_PUBLIC_URL's origin (the console application's one callback URL). */
export const CALLBACK_PATH = '/console/auth/callback';

/** The cookies of @sesame/client, named for the console and kept under /console. */
export const SESSION_COOKIES = { session: 'sesame_console_session', login: 'sesame_console_login', path: '/console' };

/**
 * The console signs people in exactly as a customer's server would: @sesame/client with its own
 * client id and secret, against the public APIs at CONSOLE_SESAME_URL.
 */
export const sesameClientProvider: Provider = {
  provide: SesameClient,
  inject: [CONSOLE_CREDENTIALS, SESAME_CONFIG],
  useFactory: (credentials: ConsoleCredentials, config: SesameConfig) =>
    createSesameClient({
      baseUrl: config.console.sesameUrl,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      callbackPath: CALLBACK_PATH,
      cookies: SESSION_COOKIES,
      // Behind the gateway the public scheme and host arrive as X-Forwarded-*; believed only when TRUST_PROXY trusts someone.
      trustProxy: config.http.trustProxy !== false,
    }),
};
