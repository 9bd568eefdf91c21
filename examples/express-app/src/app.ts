import { createSesameClient, InvalidStateError, ProviderError, RateLimitedError, SesameError, SesameUser } from '@sesame/client';
import express, { NextFunction, Request, Response } from 'express';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ExampleConfig } from './config';
import { checkInboxPage, errorPage, homePage, profilePage, Session, signInPage, WAIT_SCRIPT } from './pages';
import { passkeyScript } from './passkeys';

export type { ExampleConfig } from './config';

type WithUser = Request & { user?: SesameUser | null };

/** The one script the pages run (the "check your inbox" page's wait), allowed by the CSP by its hash. */
const WAIT_SCRIPT_HASH = `sha256-${createHash('sha256').update(WAIT_SCRIPT).digest('base64')}`;

/**
 * The example app: a sign-in form (direct authentication by e-mailed link), the callback, a page
 * showing the user and sign-out, all through @sesame/client. Returns an Express app to listen with.
 */
export function createExampleApp(config: ExampleConfig): express.Express {
  const appName = config.appName ?? 'Sesame example';
  const logger = config.logger ?? console;
  const sesame = createSesameClient({
    baseUrl: config.sesameUrl,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    trustProxy: config.trustProxy,
    autologin: config.autologin,
  });
  const csrf = signOutTokens(config.clientSecret);
  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy) app.set('trust proxy', true);
  app.use(express.urlencoded({ extended: false, limit: '10kb' }));
  // The passkey routes take the browser's WebAuthn answers as JSON.
  app.use('/passkey', express.json({ limit: '20kb' }));
  app.use(sameOriginPosts);
  app.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader(
      'Content-Security-Policy',
      `default-src 'none'; script-src 'self' '${WAIT_SCRIPT_HASH}'; connect-src 'self'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    );
    res.setHeader('Referrer-Policy', 'same-origin');
    next();
  });
  // Sets req.user to the signed-in user (or null) on every request.
  app.use(sesame.middleware());

  const send = (res: Response, page: { status: number; html: string }) => res.status(page.status).type('html').send(page.html);
  const sessionOf = (req: WithUser): Session | null => (req.user ? { user: req.user, csrf: csrf.of(sesame.getAccessToken(req)!) } : null);

  app.get('/', (req: WithUser, res) => {
    const returnTo = typeof req.query.return_to === 'string' ? req.query.return_to : undefined;
    const session = sessionOf(req);
    send(res, session ? homePage(appName, session) : signInPage(appName, { returnTo }));
  });

  app.get('/profile', (req: WithUser, res) => {
    const session = sessionOf(req);
    if (!session) return res.redirect(303, `/?return_to=${encodeURIComponent(req.originalUrl)}`);
    send(res, profilePage(appName, session));
  });

  // The form posts here. The return address is the form's return_to parameter, else the Referer
  // (the page with the form), else this origin: the library's fallback order.
  app.post('/signin', async (req, res, next) => {
    const email = typeof req.body?.email === 'string' ? req.body.email.trim() : '';
    const returnTo = typeof req.query.return_to === 'string' ? req.query.return_to : undefined;
    if (!email) return send(res, signInPage(appName, { returnTo, error: 'Enter your e-mail address.', status: 400 }));
    try {
      const attempt = await sesame.authenticateDirect(req, res, { email });
      send(
        res,
        checkInboxPage(appName, {
          email,
          sentence: attempt.sentence,
          approvalNumber: attempt.approvalNumber,
          loginAttemptId: attempt.loginAttemptId,
          allowedDate: attempt.allowedDate,
        }),
      );
    } catch (error) {
      if (error instanceof RateLimitedError) {
        const when = error.allowedDate
          ? `after ${error.allowedDate.toISOString().slice(11, 19)} UTC`
          : `in ${error.retryAfter ?? 60} seconds`;
        return send(
          res,
          signInPage(appName, { returnTo, email, error: `Too many sign-in attempts for this address. Try again ${when}.`, status: 429 }),
        );
      }
      if (error instanceof ProviderError && error.status !== null && error.status < 500) {
        return send(res, signInPage(appName, { returnTo, email, error: error.errorDescription ?? error.error, status: 400 }));
      }
      next(error);
    }
  });

  // The code of the e-mail, typed on the "check your inbox" page.
  app.post('/signin/code', async (req, res, next) => {
    const view = inboxViewOf(req.body ?? {});
    try {
      const login = await sesame.verifyCode(req, res, { loginAttemptId: view.loginAttemptId, code: String(req.body?.code ?? '') });
      res.redirect(303, login.returnTo);
    } catch (error) {
      const message = error instanceof ProviderError ? CODE_ERRORS[error.error] : undefined;
      if (message) return send(res, checkInboxPage(appName, { ...view, error: message, status: 400 }));
      next(error);
    }
  });

  // What the "check your inbox" page waits on: held (up to 20 s) until the sign-in changes, for
  // instance when the link is approved on another device; then signed in, or the page again. Its
  // script asks for JSON (WAIT_SCRIPT); without scripts the page reloads into it.
  app.get('/signin/wait', async (req, res, next) => {
    const view = inboxViewOf(req.query);
    try {
      const status = await sesame.loginStatus(req, res, { loginAttemptId: view.loginAttemptId, waitSeconds: 20 });
      const location = status.status === 'completed' ? status.returnTo : undefined;
      if (req.accepts(['html', 'json']) === 'json') return res.json({ status: status.status, location });
      if (location) return res.redirect(303, location);
      if (status.status === 'pending') return send(res, checkInboxPage(appName, view));
      send(
        res,
        errorPage(
          appName,
          'Sign-in failed',
          CALLBACK_ERRORS[`status_${status.status}`] ?? 'The sign-in did not complete. Start again here.',
          400,
        ),
      );
    } catch (error) {
      next(error);
    }
  });

  // The pages' passkey script: @simplewebauthn/browser and the buttons' wiring (passkeys.ts).
  app.get('/passkeys.js', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('application/javascript').send(passkeyScript());
  });

  // "Sign in with a passkey": Sesame's options for the page's ceremony (the login's state and PKCE
  // pair go in the login cookie, with the challenge), then the browser's answer, verified by Sesame;
  // the user is then signed in as after the callback. The return address is the request's return_to.
  app.post('/passkey/sign-in/options', async (req, res) => {
    try {
      res.json(await sesame.passkeySignInOptions(req, res));
    } catch (error) {
      passkeyError(res, error);
    }
  });

  app.post('/passkey/sign-in/verify', async (req, res) => {
    try {
      const login = await sesame.verifyPasskeySignIn(req, res, { response: req.body?.response });
      logger.log(`Signed in ${login.user.email} with a passkey`);
      res.json({ location: login.returnTo });
    } catch (error) {
      passkeyError(res, error);
    }
  });

  // "Create a passkey", offered on the home page: Sesame allows it within 10 minutes of signing in,
  // once per sign-in (the session's access token is the proof).
  app.post('/passkey/register/options', async (req: WithUser, res) => {
    if (!req.user) return void res.status(401).json({ message: 'Sign in first.' });
    try {
      res.json(await sesame.passkeyRegistrationOptions(req));
    } catch (error) {
      passkeyError(res, error);
    }
  });

  app.post('/passkey/register/verify', async (req: WithUser, res) => {
    if (!req.user) return void res.status(401).json({ message: 'Sign in first.' });
    try {
      res.json(await sesame.verifyPasskeyRegistration(req, { response: req.body?.response }));
    } catch (error) {
      passkeyError(res, error);
    }
  });

  /** A passkey request's failure, as JSON the page shows (Sesame's own text never: the page's sentence for each code). */
  const passkeyError = (res: Response, error: unknown) => {
    if (error instanceof ProviderError && error.status !== null && error.status < 500) {
      return void res.status(400).json({ message: PASSKEY_ERRORS[error.error] ?? 'The passkey did not work. Use your e-mail address.' });
    }
    if (error instanceof InvalidStateError) return void res.status(400).json({ message: 'This sign-in has expired. Try again.' });
    logger.error(error);
    res.status(502).json({ message: 'Sesame could not be reached. Try again in a moment.' });
  };

  // Sesame sends the browser here with code and state (or error). The library checks the state,
  // exchanges the code, sets the session cookie and redirects to the return address, or, on an
  // autologin stop, on to the next domain.
  app.get(
    '/callback',
    sesame.callbackHandler({
      onAfterCallback: (_req, _res, user, context) => {
        logger.log(`Signed in ${user.email}${context.autologin ? ' (autologin)' : ''}`);
      },
    }),
  );

  // Signing out changes state: only the app's own form may do it (same origin, and a token bound to the session).
  app.post('/signout', async (req, res) => {
    const token = sesame.getAccessToken(req);
    if (token && !csrf.matches(token, req.body?.csrf)) {
      res.status(403).type('text').send('This sign-out form has expired. Reload the page and try again.');
      return;
    }
    try {
      await sesame.logout(req, res);
    } catch (error) {
      // The session cookie is gone; the token could not be revoked at Sesame right now.
      logger.error(`Sign-out: ${(error as Error).message}`);
    }
    res.redirect(303, '/');
  });

  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    if (error instanceof InvalidStateError) {
      return send(
        res,
        errorPage(
          appName,
          'This sign-in cannot continue',
          'The link was opened in another browser than the one you signed in from, or the sign-in has expired. Start again here.',
          400,
        ),
      );
    }
    if (error instanceof ProviderError && error.status === null) {
      // The callback's error and error_description are whatever the link's author put there: the page
      // shows its own sentence for the codes it knows, never their text (content injection).
      return send(
        res,
        errorPage(appName, 'Sign-in failed', CALLBACK_ERRORS[error.error] ?? 'The sign-in did not complete. Start again here.', 400),
      );
    }
    if (error instanceof SesameError) {
      logger.error(error);
      return send(res, errorPage(appName, 'Sign-in failed', 'Sesame could not complete the sign-in. Try again in a moment.', 502));
    }
    logger.error(error);
    send(res, errorPage(appName, 'Something went wrong', 'An unexpected error occurred.', 500));
  });

  return app;
}

/** The "check your inbox" page's own fields, carried by its code form and its wait URL. */
function inboxViewOf(fields: Record<string, unknown>) {
  const field = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : '');
  return { loginAttemptId: field('attempt'), email: field('email'), sentence: field('sentence'), approvalNumber: field('number') };
}

/** What the "check your inbox" page says for the code refusals it shows the page again for. */
const CODE_ERRORS: Record<string, string> = {
  invalid_login_code: 'That code is not right. After 5 wrong codes this sign-in stops.',
  invalid_request: 'Type the 6 digits of the code in the e-mail.',
  login_code_disabled: 'Codes are turned off for this address after too many wrong ones. Open the link in the e-mail instead.',
};

/** What the pages say for Sesame's passkey refusals. */
const PASSKEY_ERRORS: Record<string, string> = {
  passkey_refused: 'This passkey cannot sign you in here. Use your e-mail address.',
  passkey_challenge_invalid: 'This passkey request has expired. Try again.',
  passkey_registration_not_allowed:
    'A passkey can be created only right after signing in (within 10 minutes), once. Sign in again to create one.',
  passkey_exists: 'This passkey is already registered.',
  passkeys_off: 'Passkeys are turned off for this organization.',
};

/** What the error page says for the callback errors it knows. */
const CALLBACK_ERRORS: Record<string, string> = {
  login_link_expired: 'This sign-in link has expired.',
  login_link_used: 'This sign-in link was already used.',
  access_denied: 'Sign-in was refused.',
  login_attempt_locked: 'This sign-in was stopped after too many wrong codes. Start again here.',
  status_locked: 'This sign-in was stopped after too many wrong codes. Start again here.',
  status_expired: 'This sign-in has expired. Start again here.',
};

/**
 * Refuses form posts that do not come from this origin: `Sec-Fetch-Site: same-origin`, or else an
 * `Origin` header equal to this origin. Browsers send one of them on every form post (the pages'
 * Referrer-Policy is same-origin, so Origin is not "null"); a post with neither is refused too.
 */
function sameOriginPosts(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'POST') return next();
  const site = req.headers['sec-fetch-site'];
  // Express 5's req.protocol and req.host (with its port) follow the app's 'trust proxy' setting.
  const sameOrigin = site !== undefined ? site === 'same-origin' : req.headers.origin === `${req.protocol}://${req.host}`;
  if (!sameOrigin) {
    res.status(403).type('text').send('Cross-site form posts are refused.');
    return;
  }
  next();
}

/** The sign-out form's token: an HMAC of the session's access token, keyed from the client secret. */
function signOutTokens(clientSecret: string) {
  const key = createHmac('sha256', clientSecret).update('example app sign-out csrf').digest();
  const of = (session: string) => createHmac('sha256', key).update(session).digest('base64url');
  return {
    of,
    matches: (session: string, presented: unknown) => {
      const expected = Buffer.from(of(session));
      return typeof presented === 'string' && presented.length === expected.length && timingSafeEqual(expected, Buffer.from(presented));
    },
  };
}
