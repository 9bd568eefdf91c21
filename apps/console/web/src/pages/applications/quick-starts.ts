import type { components } from '../../api/console-api';
import type { Application } from './application-queries';

type Endpoints = components['schemas']['SesameEndpointsResponse'];

export interface QuickStart {
  id: string;
  title: string;
  code: string;
}

/** The API base the client libraries take (the issuer without /v1). */
const apiBase = (endpoints: Endpoints) => endpoints.issuer.replace(/\/v1$/, '');
const SECRET_PLACEHOLDER = '<client secret: Reveal above, keep it in your server’s environment>';

/**
 * Quick starts filled with the application's real values. The secret is a placeholder: a snippet is
 * something people paste into chats and repositories, so it never carries the secret itself.
 */
export function quickStarts(application: Application, endpoints: Endpoints): QuickStart[] {
  const callback =
    application.callbackUrls[0] ?? (application.type === 'desktop' ? 'http://127.0.0.1:8765/callback' : 'https://app.example.com/callback');
  const starts: QuickStart[] = [];
  if (application.type === 'web') {
    starts.push({
      id: 'express',
      title: '@sesame/client (Express)',
      code: `import { createSesameClient } from '@sesame/client';
import express from 'express';

const sesame = createSesameClient({
  baseUrl: '${apiBase(endpoints)}',
  clientId: '${application.clientId}',
  clientSecret: process.env.SESAME_CLIENT_SECRET, // ${SECRET_PLACEHOLDER}
});

const app = express();
app.use(express.urlencoded({ extended: false }));
app.use(sesame.middleware()); // req.user: the signed-in user or null

// "Check your inbox": the sentence (the e-mail shows it too), the approval number, large and only
// here (a phone that opens the link types it to sign this browser in), a field for the e-mail's
// code, and a script that waits on /signin/status and goes on by itself.
app.post('/signin', async (req, res) => {
  const attempt = await sesame.authenticateDirect(req, res, { email: req.body.email });
  res.send(checkInboxPage(attempt.sentence, attempt.approvalNumber, attempt.loginAttemptId));
});

// The 6-digit code of the e-mail, typed on that page
app.post('/signin/code', async (req, res) => {
  const login = await sesame.verifyCode(req, res, { loginAttemptId: req.body.attempt, code: req.body.code });
  res.redirect(303, login.returnTo);
});

// Held up to 25 s; answers {status: 'completed', returnTo} once the link is approved on a phone
app.get('/signin/status', sesame.loginStatusHandler());

// ${callback}
app.get('${new URL(callback).pathname}', sesame.callbackHandler());`,
    });
  } else {
    starts.push({
      id: 'react-native',
      title: '@sesame/client-react-native',
      code: `import { createSesameNativeClient } from '@sesame/client-react-native';

export const sesame = createSesameNativeClient({
  baseUrl: '${apiBase(endpoints)}',
  clientId: '${application.clientId}',
  redirectUri: '${callback}',
  storage: secureStorage, // the Keychain / Keystore, see the library's README
});

// Opens the hosted login page; the e-mailed link comes back to ${callback}
const user = await sesame.login({ loginHint: 'ada@example.com' });`,
    });
  }
  starts.push({ id: 'curl', title: 'curl', code: curlSnippet(application, endpoints, callback) });
  return starts;
}

function curlSnippet(application: Application, endpoints: Endpoints, callback: string): string {
  const auth = application.type === 'web' ? `-u '${application.clientId}:'"$SESAME_CLIENT_SECRET"` : '';
  const start =
    application.type === 'web'
      ? `# 1. E-mail a login link (direct authentication: web apps of Pro and Enterprise tenants)
curl ${auth} -H 'Content-Type: application/json' \\
  -d '{"email":"ada@example.com","redirect_uri":"${callback}","state":"xyz","code_challenge":"'"$CHALLENGE"'","code_challenge_method":"S256"}' \\
  ${endpoints.authenticateDirect}
# → {"loginAttemptId":"…","sentence":"…","approvalNumber":"42",…}: show the sentence, and the number
#   large on the waiting screen only (a phone that opens the link types it there)

# 1a. Either the 6-digit code of the e-mail, typed on the waiting screen
curl ${auth} -H 'Content-Type: application/json' \\
  -d '{"loginAttemptId":"'"$ATTEMPT"'","code":"123456"}' ${endpoints.issuer}/login_code
# 1b. Or wait: once the link is approved on a phone, the answer carries the code
curl ${auth} '${endpoints.issuer}/login_attempt/'"$ATTEMPT"'?wait=25'`
      : `# 1. Open the hosted login page in a browser
open '${endpoints.authorize}?response_type=code&client_id=${application.clientId}&redirect_uri=${encodeURIComponent(callback)}&state=xyz&code_challenge='"$CHALLENGE"'&code_challenge_method=S256'`;
  return `# PKCE: VERIFIER=$(openssl rand -base64 48 | tr -d '=+/\\n' | cut -c1-64)
#       CHALLENGE=$(printf %s "$VERIFIER" | openssl dgst -sha256 -binary | base64 | tr '+/' '-_' | tr -d '=')
${start}

# 2. The link sends the browser to ${callback}?code=…&state=xyz (or 1a / 1b answer the code): exchange it
curl ${auth ? `${auth} ` : ''}-d grant_type=authorization_code -d code="$CODE" \\
  -d redirect_uri='${callback}' -d code_verifier="$VERIFIER"${application.type === 'web' ? '' : ` -d client_id=${application.clientId}`} \\
  ${endpoints.verify}

# 3. Who signed in
curl -H "Authorization: Bearer $ACCESS_TOKEN" ${endpoints.userinfo}`;
}
