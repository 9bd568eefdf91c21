import { createHash } from 'node:crypto';
import { html, SafeHtml } from './html';

const STYLE = `
:root{color-scheme:light dark;--bg:#f4f5f7;--card:#fff;--text:#1c1f26;--muted:#5b6170;--line:#e3e5ea;--accent:#3b5bdb;--accent-text:#fff;--danger:#c92a2a;--phrase:#eef2ff}
@media (prefers-color-scheme:dark){:root{--bg:#14161b;--card:#1d2027;--text:#eceef3;--muted:#a2a8b5;--line:#2e323c;--accent:#748ffc;--accent-text:#10131a;--danger:#ff8787;--phrase:#262b3d}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;padding:24px}
main{width:100%;max-width:420px;background:var(--card);border:1px solid var(--line);border-radius:14px;padding:32px 28px;box-shadow:0 8px 30px rgba(0,0,0,.06)}
.brand{display:flex;align-items:center;gap:10px;margin-bottom:24px;color:var(--muted);font-size:14px;font-weight:600;letter-spacing:.02em}
.logo{width:28px;height:28px;border-radius:8px;background:var(--accent);color:var(--accent-text);display:grid;place-items:center;font-weight:700}
h1{font-size:22px;line-height:1.3;margin:0 0 8px}
p{margin:0 0 16px;color:var(--muted)}
.phrase{margin:20px 0;padding:14px 16px;border-radius:10px;background:var(--phrase);color:var(--text);font-size:18px;font-weight:600;text-align:center}
label{display:block;font-weight:600;margin:16px 0 6px}
input[type=email]{width:100%;padding:12px 14px;border:1px solid var(--line);border-radius:10px;background:transparent;color:var(--text);font-size:16px}
input[type=email]:focus{outline:2px solid var(--accent);outline-offset:1px}
button{width:100%;margin-top:16px;padding:12px 16px;border:0;border-radius:10px;background:var(--accent);color:var(--accent-text);font-size:16px;font-weight:600;cursor:pointer}
button:focus-visible{outline:3px solid var(--text);outline-offset:2px}
.error{color:var(--danger)}
.fine{font-size:13px;margin-top:20px}
`;

/** The CSP allows exactly this stylesheet: no scripts, no other resources. */
const STYLE_HASH = `sha256-${createHash('sha256').update(STYLE).digest('base64')}`;

export interface PageContent {
  title: string;
  /** Shown above the heading: the organization the user signs in to. */
  brand?: string | null;
  body: SafeHtml;
}

export interface RenderedPage {
  html: string;
  contentSecurityPolicy: string;
  /** Further response headers, such as Set-Cookie. */
  headers?: Record<string, string>;
}

/**
 * A complete page. `formTargets` are the origins forms on the page may submit (or be redirected)
 * to, besides the service itself.
 */
export function renderPage(content: PageContent, formTargets: string[] = [], lang = 'en'): RenderedPage {
  const brand = content.brand ?? 'Sesame';
  const page = html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${content.title} · ${brand}</title>
<style>${new SafeHtml(STYLE)}</style>
</head>
<body>
<main>
<div class="brand"><span class="logo" aria-hidden="true">${brand.slice(0, 1).toUpperCase()}</span><span>${brand}</span></div>
${content.body}
</main>
</body>
</html>`;
  return { html: page.value, contentSecurityPolicy: contentSecurityPolicy(formTargets) };
}

function contentSecurityPolicy(formTargets: string[]): string {
  const targets = ["'self'", ...new Set(formTargets)].join(' ');
  return `default-src 'none'; style-src '${STYLE_HASH}'; img-src 'self' data:; form-action ${targets}; frame-ancestors 'none'; base-uri 'none'`;
}
