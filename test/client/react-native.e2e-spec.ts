import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { createSesameNativeClient, InvalidStateError, MemoryStorage, ProviderError, SesameNativeClient } from '@sesame/client-react-native';
import { startStack, Stack } from '../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { basicAuth, uniqueEmail } from '../support/login';
import { linkIn, SmtpSink } from '../support/smtp-sink';
import { completeHostedLogin, pressContinue, submitHostedForm } from './support/hosted-page';

const REDIRECT_URI = 'com.example.notes:/callback';

/**
 * @sesame/client-react-native against the real service, in Node with the in-memory storage: the
 * hosted login page with PKCE and no secret (the test plays the phone's browser over HTTP), the
 * token in storage, sent as a Bearer token to the app's own backend, the user, and logout.
 */
describe('React Native client against Sesame', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let ios: ApplicationFixture;
  let backendApp: ApplicationFixture;
  let backend: Server;
  let backendUrl: string;

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    const management = stack.management.url;
    const tenant = await createTenant(management, 'free'); // the hosted page works on every plan
    const organization = await createOrganization(management, tenant, { name: 'Acme Notes' });
    ios = await createApplication(management, organization, { type: 'ios', name: 'Acme Notes for iOS', callbackUrls: [REDIRECT_URI] });
    backendApp = await createApplication(management, organization, { type: 'web', name: 'Acme Notes API' });

    // The app's own backend: it takes the Bearer token and asks Sesame who it belongs to (RFC 7662 introspection with its own credentials).
    backend = createServer((req, res) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const answer = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (!token) return answer(401, { error: 'no token' });
      fetch(`${stack.auth.url}/api/v1/introspect`, {
        method: 'POST',
        headers: { authorization: basicAuth(backendApp), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }).toString(),
      })
        .then((response) => response.json() as Promise<{ active: boolean; email?: string }>)
        .then((introspection) =>
          introspection.active ? answer(200, { notes: [`Hello ${introspection.email}`] }) : answer(401, { error: 'inactive token' }),
        )
        .catch((error: Error) => answer(500, { error: error.message }));
    });
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
    backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => backend?.close(resolve));
    await stack?.close();
    await smtp.stop();
  });

  function nativeClient(
    storage = new MemoryStorage(),
    email = uniqueEmail('native'),
  ): { sesame: SesameNativeClient; storage: MemoryStorage; email: string } {
    const sesame = createSesameNativeClient({
      baseUrl: stack.auth.config.http.publicBaseUrl,
      clientId: ios.clientId,
      redirectUri: REDIRECT_URI,
      storage,
      openAuthSession: (url) => completeHostedLogin(url, smtp, email),
    });
    return { sesame, storage, email };
  }

  it('logs in through the hosted page with PKCE, stores the token, calls the app’s backend with it, and logs out', async () => {
    const { sesame, storage, email } = nativeClient();
    expect(await sesame.getUser()).toBeNull();

    const user = await sesame.login({ loginHint: email });
    expect(user).toMatchObject({ email, emailVerified: true, organizationId: ios.organizationId });
    expect(storage.keys()).toEqual(['sesame.session']); // the login in progress is gone, the session stays
    const session = (await sesame.getSession())!;
    expect(session.accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
    expect(await sesame.getUser()).toEqual(user);

    // The app sends the token to its own backend as a Bearer token.
    const notes = await fetch(`${backendUrl}/notes`, { headers: await sesame.getAuthorizationHeader() });
    expect(notes.status).toBe(200);
    expect(await notes.json()).toEqual({ notes: [`Hello ${email}`] });

    // A restarted app finds the session in storage.
    const restarted = nativeClient(storage).sesame;
    expect(await restarted.getUser()).toMatchObject({ email });

    expect(await restarted.logout()).toEqual({ revoked: true });
    expect(storage.keys()).toEqual([]);
    expect(await sesame.getUser()).toBeNull();
    expect((await fetch(`${stack.auth.url}/api/v1/userinfo`, { headers: { authorization: `Bearer ${session.accessToken}` } })).status).toBe(
      401,
    );
    expect((await fetch(`${backendUrl}/notes`, { headers: { authorization: `Bearer ${session.accessToken}` } })).status).toBe(401);
  });

  it('completes a login from a deep link (startLogin, then handleRedirect)', async () => {
    const { sesame, email } = nativeClient();
    const url = await sesame.startLogin({ uiLocales: 'de' });
    const redirect = await completeHostedLogin(url, smtp, email);
    expect(sesame.isRedirect(redirect)).toBe(true);
    expect(await sesame.handleRedirect(redirect)).toMatchObject({ email });
    expect(await sesame.getAccessToken()).not.toBeNull();
  });

  it('aborts a redirect whose state it did not start, and that code still works for the app that did', async () => {
    const victim = nativeClient();
    const attacker = nativeClient(new MemoryStorage(), victim.email);
    const redirect = await completeHostedLogin(await attacker.sesame.startLogin(), smtp, victim.email);

    await expect(victim.sesame.handleRedirect(redirect)).rejects.toBeInstanceOf(InvalidStateError);
    expect(await victim.sesame.getAccessToken()).toBeNull();
    // Nothing was exchanged: the code is still good for the login it belongs to.
    expect(await attacker.sesame.handleRedirect(redirect)).toMatchObject({ email: victim.email });
  });

  it('reports Sesame’s error redirect (a link used twice) as a ProviderError', async () => {
    const { sesame, email } = nativeClient();
    await submitHostedForm(await sesame.startLogin(), email);
    const link = linkIn(await smtp.next(email));
    const success = await pressContinue(link);
    // Continue pressed again on the same link: Sesame redirects with error=login_link_used and the state.
    const failure = await pressContinue(link);
    expect(new URL(failure).searchParams.get('error')).toBe('login_link_used');
    const error = await sesame.handleRedirect(failure).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ error: 'login_link_used', errorDescription: 'This login link has already been used', status: null });
    // That login is over in this app (its state is forgotten), so the first redirect no longer completes either.
    await expect(sesame.handleRedirect(success)).rejects.toMatchObject({ name: 'InvalidStateError', reason: 'unknown_state' });
  });
});
