import { Membership } from '../forward/management-api';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (value: string) => value.replace(/[&<>"']/g, (character) => ESCAPES[character]);

/** The one stylesheet and policy of the placeholder pages: no script, forms only to the console itself. */
export const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Sesame console</title>
<style>
body{margin:0;background:#f4f5f7;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1c1f26}
main{max-width:520px;margin:48px auto;background:#fff;border:1px solid #e3e5ea;border-radius:14px;padding:32px 28px}
h1{font-size:22px;margin:0 0 16px}p{line-height:1.5}.note{color:#5b6170;font-size:14px}
.sentence{padding:14px 16px;border-radius:10px;background:#eef2ff;font-size:18px;font-weight:600;text-align:center}
.error{padding:10px 14px;border-radius:10px;background:#fdecea;color:#8a1c12}
input[type=email]{width:100%;box-sizing:border-box;padding:10px;border:1px solid #c8ccd6;border-radius:8px;font-size:16px;margin:8px 0 16px}
button{padding:10px 22px;border:0;border-radius:10px;background:#3b5bdb;color:#fff;font-size:16px;font-weight:600;cursor:pointer}
table{width:100%;border-collapse:collapse}td,th{text-align:left;padding:6px 0;border-bottom:1px solid #eef0f3}
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

const csrfField = (csrf: string) => `<input type="hidden" name="csrf" value="${escape(csrf)}">`;

const signOutForm = (csrf: string) => `<form method="post" action="/console/sign_out">${csrfField(csrf)}<button type="submit">Sign out</button></form>`;

export function signInPage(csrf: string, error: string | null): string {
  return page(
    'Sign in',
    `<h1>Sign in to the Sesame console</h1>
${error ? `<p class="error">${escape(error)}</p>` : ''}
<form method="post" action="/console/sign_in">${csrfField(csrf)}
<label for="email">Your e-mail address</label>
<input id="email" name="email" type="email" required autocomplete="email">
<button type="submit">Send me a sign-in link</button>
</form>
<p class="note">We e-mail you a link; no password is needed.</p>`,
  );
}

export function checkInboxPage(email: string, sentence: string): string {
  return page(
    'Check your inbox',
    `<h1>Check your inbox</h1>
<p>We sent a sign-in link to <strong>${escape(email)}</strong>. The page it opens shows this sentence, so you can tell the request is yours:</p>
<p class="sentence">${escape(sentence)}</p>`,
  );
}

export function notMemberPage(email: string, csrf: string): string {
  return page(
    'No access',
    `<h1>No access</h1>
<p>You are signed in as <strong>${escape(email)}</strong>, but you are not a member of any tenant. Ask an owner of your tenant to invite you.</p>
${signOutForm(csrf)}`,
  );
}

export function tenantsPage(email: string, memberships: Membership[], csrf: string): string {
  const rows = memberships.map((membership) => `<tr><td>${escape(membership.tenantName)}</td><td>${escape(membership.role)}</td><td>${escape(membership.plan)}</td></tr>`).join('');
  return page(
    'Your tenants',
    `<h1>Your tenants</h1>
<p>Signed in as <strong>${escape(email)}</strong>.</p>
<table><tr><th>Tenant</th><th>Role</th><th>Plan</th></tr>${rows}</table>
<p class="note">The console's pages are on their way; until then its API is at <code>/console/api</code> (see <code>/console/api/docs</code>).</p>
${signOutForm(csrf)}`,
  );
}
