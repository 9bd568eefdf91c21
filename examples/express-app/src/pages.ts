import type { SesameUser } from '@sesame/client';

/** HTML-escapes text for element content and attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
  body { margin: 0; background: #f4f5f7; color: #1d2330; }
  header { background: #1d2330; color: #fff; padding: 0 1.5rem; height: 3.25rem; display: flex; justify-content: space-between; align-items: center; }
  header a { color: #fff; text-decoration: none; font-weight: 600; }
  header form { margin: 0; }
  main { max-width: 34rem; margin: 2.5rem auto; background: #fff; border-radius: 12px; padding: 2rem; box-shadow: 0 1px 3px rgba(0,0,0,.08); }
  h1 { font-size: 1.5rem; margin: 0 0 1rem; }
  label { display: block; font-weight: 600; margin-bottom: .4rem; }
  input[type=email], input#code { width: 100%; box-sizing: border-box; font: inherit; padding: .6rem .7rem; border: 1px solid #c4c9d4; border-radius: 8px; }
  button { font: inherit; font-weight: 600; padding: .6rem 1.1rem; border: 0; border-radius: 8px; background: #3657d6; color: #fff; cursor: pointer; margin-top: 1rem; }
  header button { margin: 0; background: #fff; color: #1d2330; padding: .35rem .8rem; }
  .number { font: 700 2.75rem/1.1 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; letter-spacing: .1em; text-align: center; margin: .5rem 0 1.25rem; }
  .phrase { font-size: 1.25rem; font-weight: 600; background: #eef1fb; border-radius: 8px; padding: .8rem 1rem; margin: 1rem 0; }
  .notice { background: #e8f6ec; color: #1c5a2e; border-radius: 8px; padding: .7rem 1rem; margin: 1rem 0; }
  button.secondary { background: #fff; color: #3657d6; border: 1px solid #3657d6; }
  .error { background: #fdecec; color: #8a1c1c; border-radius: 8px; padding: .7rem 1rem; margin-bottom: 1rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .5rem 1rem; margin: 0; }
  dt { font-weight: 600; color: #5a6274; }
  dd { margin: 0; overflow-wrap: anywhere; }
  .muted { color: #5a6274; font-size: .95rem; }
`;

/** The signed-in user, and the CSRF token of the sign-out form (bound to the session). */
export interface Session {
  user: SesameUser;
  csrf: string;
}

function layout(appName: string, title: string, session: Session | null, body: string, status = 200): { status: number; html: string } {
  const account = session
    ? `<form method="post" action="/signout"><input type="hidden" name="csrf" value="${escapeHtml(session.csrf)}"><span id="signed-in-as">${escapeHtml(session.user.email)}</span> <button type="submit" id="sign-out">Sign out</button></form>`
    : '<span class="muted" style="color:#c9cfdb">Signed out</span>';
  return {
    status,
    html: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(appName)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><a href="/">${escapeHtml(appName)}</a>${account}</header>
<main>
${body}
</main>
</body>
</html>`,
  };
}

export function signInPage(appName: string, options: { returnTo?: string; email?: string; error?: string; status?: number } = {}) {
  const returnTo = options.returnTo ? `?return_to=${encodeURIComponent(options.returnTo)}` : '';
  const action = `/signin${returnTo}`;
  const passkeyOptionsUrl = `/passkey/sign-in/options${returnTo}`;
  return layout(
    appName,
    'Sign in',
    null,
    `<h1>Sign in</h1>
${options.error ? `<p class="error" id="error" role="alert">${escapeHtml(options.error)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}">
<label for="email">E-mail address</label>
<input type="email" id="email" name="email" autocomplete="email" required value="${escapeHtml(options.email ?? '')}">
<button type="submit" id="send-link">Send me a sign-in link</button>
</form>
<p class="muted">We e-mail you a one-time link. No password needed.</p>
<button type="button" class="secondary" id="passkey-sign-in" data-options-url="${escapeHtml(passkeyOptionsUrl)}">Sign in with a passkey</button>
<p id="passkey-message" role="status" hidden></p>
<script src="/passkeys.js"></script>`,
    options.status,
  );
}

export interface InboxView {
  email: string;
  sentence: string;
  /** Shown on this page only: typed on another device, it signs this browser in. */
  approvalNumber: string;
  loginAttemptId: string;
  allowedDate?: Date;
  error?: string;
  status?: number;
}

/**
 * How the "check your inbox" page goes on by itself: in the background it asks /signin/wait for
 * JSON (held until the sign-in changes, for instance when the link is approved on another device),
 * and once it is no longer pending it goes where the answer says (signed in) or to /signin/wait
 * (the outcome). It never reloads while pending: a reload would wipe a code being typed or cancel
 * the code form on its way. Without scripts a meta refresh reloads into /signin/wait. The CSP
 * allows this script by its hash.
 */
export const WAIT_SCRIPT = `(function () {
  var form = document.getElementById('code').form;
  var leaving = false;
  form.addEventListener('submit', function () { leaving = true; });
  function watch() {
    var asked = Date.now();
    fetch(form.dataset.waitUrl, { headers: { accept: 'application/json' } })
      .then(function (response) { return response.ok ? response.json() : { status: 'unknown' }; })
      .then(function (answer) {
        // A wait that answered at once is asked again after a pause, not in a tight loop.
        if (answer.status === 'pending') return setTimeout(watch, Date.now() - asked < 1000 ? 3000 : 0);
        if (!leaving) location.replace(answer.location || form.dataset.waitUrl);
      }, function () { setTimeout(watch, 3000); });
  }
  watch();
})();`;

/**
 * After the form: the phrase (the e-mail shows it too), the approval number (only here), a field
 * for the e-mail's code, and a page that waits for an approval on another device (WAIT_SCRIPT).
 */
export function checkInboxPage(appName: string, view: InboxView) {
  const fields = { attempt: view.loginAttemptId, email: view.email, sentence: view.sentence, number: view.approvalNumber };
  const wait = `/signin/wait?${new URLSearchParams(fields).toString()}`;
  return layout(
    appName,
    'Check your inbox',
    null,
    `<noscript><meta http-equiv="refresh" content="3;url=${escapeHtml(wait)}"></noscript>
<h1>Check your inbox</h1>
${view.error ? `<div class="error" role="alert" id="code-error">${escapeHtml(view.error)}</div>` : ''}
<p>We sent a sign-in link to <strong id="email-sent-to">${escapeHtml(view.email)}</strong>. The e-mail shows this phrase:</p>
<div class="phrase" id="sentence">${escapeHtml(view.sentence)}</div>
<p class="muted">Open the link here, or on another device (your phone, say): choose "Sign in on the device where you asked" there and type this number. This page then signs you in by itself.</p>
<div class="number" id="approval-number">${escapeHtml(view.approvalNumber)}</div>
<form method="post" action="/signin/code" data-wait-url="${escapeHtml(wait)}">
${Object.entries(fields)
  .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
  .join('\n')}
<label for="code">Or type the 6-digit code from the e-mail</label>
<input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="7" required>
<button type="submit">Sign in with the code</button>
</form>
${view.allowedDate ? `<p class="muted">You can ask for another link after <time id="allowed-date" datetime="${view.allowedDate.toISOString()}">${escapeHtml(clock(view.allowedDate))}</time>.</p>` : ''}
<p><a href="/">Use another address</a></p>
<script>${WAIT_SCRIPT}</script>`,
    view.status,
  );
}

export function homePage(appName: string, session: Session) {
  const { user } = session;
  return layout(
    appName,
    'Home',
    session,
    `<h1 id="welcome">Welcome${user.name ? `, ${escapeHtml(user.name)}` : ''}!</h1>
<p>You are signed in as <strong id="user-email">${escapeHtml(user.email)}</strong>.</p>
<dl>
<dt>User id</dt><dd id="user-id">${escapeHtml(user.id)}</dd>
<dt>E-mail verified</dt><dd id="user-verified">${user.emailVerified ? 'yes' : 'no'}</dd>
<dt>Organization</dt><dd id="user-organization">${escapeHtml(user.organizationId)}</dd>
<dt>Updated</dt><dd>${escapeHtml(user.updatedAt.toISOString())}</dd>
</dl>
<p><a href="/profile">Your profile (a page only signed-in users see)</a></p>
<h2>Passkeys</h2>
<p class="muted">Sign in next time without an e-mail: create a passkey on this device (right after signing in).</p>
<button type="button" id="passkey-create">Create a passkey</button>
<p id="passkey-message" role="status" hidden></p>
<script src="/passkeys.js"></script>`,
  );
}

export function profilePage(appName: string, session: Session) {
  return layout(
    appName,
    'Profile',
    session,
    `<h1>Profile</h1><p>This page is only for signed-in users.</p><pre id="profile">${escapeHtml(JSON.stringify(session.user, null, 2))}</pre>`,
  );
}

export function errorPage(appName: string, title: string, message: string, status: number) {
  return layout(
    appName,
    title,
    null,
    `<h1 id="error-title">${escapeHtml(title)}</h1><p class="error" id="error" role="alert">${escapeHtml(message)}</p><p><a href="/">Start again</a></p>`,
    status,
  );
}

function clock(date: Date): string {
  return `${date.toISOString().slice(11, 19)} UTC`;
}
