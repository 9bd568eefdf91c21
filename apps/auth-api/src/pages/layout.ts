import { createHash } from 'node:crypto';
import { html, SafeHtml } from './html';

const STYLE = `
:root{color-scheme:light dark;--bg:#f4f5f7;--card:#fff;--text:#1c1f26;--muted:#5b6170;--line:#d9dce3;--accent:#3b5bdb;--accent-hover:#324fc4;--accent-text:#fff;--danger:#c92a2a;--danger-badge:#fff0f0;--phrase:#eef2ff;--phrase-line:#d0d9ff;--badge:#eef2ff}
@media (prefers-color-scheme:dark){:root{--bg:#14161b;--card:#1d2027;--text:#eceef3;--muted:#a2a8b5;--line:#353a45;--accent:#748ffc;--accent-hover:#91a7ff;--accent-text:#10131a;--danger:#ff8787;--danger-badge:#3a2226;--phrase:#262b3d;--phrase-line:#3b4466;--badge:#262b3d}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:20px;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;padding:24px 16px;-webkit-font-smoothing:antialiased}
main{width:100%;max-width:420px;background:var(--card);border:1px solid var(--line);border-radius:16px;padding:32px 28px;box-shadow:0 1px 2px rgba(16,24,40,.04),0 12px 32px rgba(16,24,40,.08)}
.brand{display:flex;align-items:center;gap:10px;margin-bottom:24px;color:var(--muted);font-size:14px;font-weight:600;letter-spacing:.01em}
.logo{width:28px;height:28px;flex:none;border-radius:8px;background:var(--accent);color:var(--accent-text);display:grid;place-items:center;font-weight:700}
.icon{width:48px;height:48px;border-radius:50%;background:var(--badge);color:var(--accent);display:grid;place-items:center;margin-bottom:16px}
.icon.alert{color:var(--danger);background:var(--danger-badge)}
.icon svg{width:24px;height:24px}
h1{font-size:22px;line-height:1.3;margin:0 0 8px;letter-spacing:-.01em}
p{margin:0 0 16px;color:var(--muted)}
strong{color:var(--text);font-weight:600;overflow-wrap:anywhere}
.phrase{margin:20px 0;padding:14px 16px;border:1px solid var(--phrase-line);border-radius:10px;background:var(--phrase);color:var(--text);font-size:18px;font-weight:600;text-align:center}
label{display:block;font-weight:600;font-size:15px;margin:20px 0 6px}
input,button{font:inherit}
input[type=email],input.code{width:100%;padding:11px 14px;border:1px solid var(--line);border-radius:10px;background:var(--card);color:var(--text)}
input[type=email]:focus,input.code:focus{outline:2px solid var(--accent);outline-offset:-1px;border-color:transparent}
input.code{font:600 22px/1.2 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;letter-spacing:.2em;text-align:center}
input[aria-invalid=true]{border-color:var(--danger)}
button{width:100%;margin-top:16px;padding:12px 16px;border:0;border-radius:10px;background:var(--accent);color:var(--accent-text);font-weight:600;cursor:pointer;transition:background-color .15s}
button:hover{background:var(--accent-hover)}
a.button{display:block;margin-top:16px;padding:12px 16px;border-radius:10px;background:var(--accent);color:var(--accent-text);font-weight:600;text-align:center;text-decoration:none}
form+a.button{background:transparent;color:var(--accent);border:1px solid var(--line)}
a.button+form button{background:transparent;color:var(--accent);border:1px solid var(--line)}
dl.request{display:grid;grid-template-columns:max-content 1fr;gap:4px 14px;margin:0 0 16px;font-size:15px}
dl.request dt{color:var(--muted)}
dl.request dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.warning{padding:12px 14px;border-radius:10px;background:var(--danger-badge);color:var(--text);font-size:14px}
.hint{font-size:14px;margin:0 0 8px}
.approval{margin:20px 0;padding:14px 16px;border:1px solid var(--phrase-line);border-radius:10px;background:var(--phrase);text-align:center}
.approval p{margin:0;font-size:14px}
.approval strong{display:block;font:700 44px/1.2 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;letter-spacing:.1em}
button:focus-visible{outline:3px solid var(--text);outline-offset:2px}
.error{color:var(--danger);font-size:14px;margin:8px 0 0}
form+p{margin-top:20px}
.fine{font-size:13px;margin:20px 0 0}
footer{font-size:12px;color:var(--muted)}
.or{display:flex;align-items:center;gap:12px;margin:20px 0 0;font-size:14px}
.or::before,.or::after{content:"";flex:1;border-top:1px solid var(--line)}
button.secondary,a.button.secondary{background:transparent;color:var(--accent);border:1px solid var(--line)}
button.secondary:hover,a.button.secondary:hover{background:var(--phrase)}
button:disabled{opacity:.6;cursor:default}
[hidden]{display:none!important}
@media (max-width:480px){body{justify-content:flex-start;padding-top:32px}main{padding:28px 20px}}
`;

/** The CSP allows exactly this stylesheet, and no other resources than a page's own script. */
const STYLE_HASH = sha256Source(STYLE);

export interface PageContent {
  title: string;
  /** Shown above the heading: the organization the user signs in to. */
  brand?: string | null;
  /** A badge above the heading. */
  icon?: PageIcon;
  body: SafeHtml;
  /** The page's one inline script, if any: the CSP allows exactly it (by its hash), and fetches from this origin. */
  script?: string;
}

export type PageIcon = 'mail' | 'alert' | 'key';

/** Inline SVG (no request, nothing for the CSP to allow), drawn in the badge's text colour. */
const ICONS: Record<PageIcon, string> = {
  mail: '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><rect x="3" y="5" width="18" height="14" rx="2"/><path d="m3 7 9 6 9-6"/></svg>',
  key: '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><circle cx="8" cy="15" r="4"/><path d="m10.8 12.2 8.2-8.2"/><path d="m16 7 3 3"/><path d="m14 9 2 2"/></svg>',
  alert:
    '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><circle cx="12" cy="12" r="9"/><path d="M12 7.5v5.5"/><path d="M12 16.5h.01"/></svg>',
};

/** The browser tab's icon, as a data: URL (the CSP allows data: images and nothing else remote). */
const FAVICON = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#3b5bdb"/><path d="M10 17l4 4 8-10" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>')}`;

export interface RenderedPage {
  html: string;
  contentSecurityPolicy: string;
  /** Further response headers, such as Set-Cookie. */
  headers?: Record<string, string>;
}

/**
 * A complete page. `formTargets` are where forms on the page may submit (or be redirected) to,
 * besides the service itself: origins, or URLs (see formActionSource).
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
<link rel="icon" href="${FAVICON}">
<style>${new SafeHtml(STYLE)}</style>
</head>
<body>
<main>
<div class="brand"><span class="logo" aria-hidden="true">${brand.slice(0, 1).toUpperCase()}</span><span>${brand}</span></div>
${content.icon ? html`<div class="icon${content.icon === 'alert' ? ' alert' : ''}">${new SafeHtml(ICONS[content.icon])}</div>` : ''}
${content.body}
</main>
<footer>Secured by Sesame</footer>
${content.script ? html`<script>${new SafeHtml(content.script)}</script>` : ''}
</body>
</html>`;
  return { html: page.value, contentSecurityPolicy: contentSecurityPolicy(formTargets, content.script) };
}

function contentSecurityPolicy(formTargets: string[], script?: string): string {
  const sources = formTargets.map(formActionSource).filter((source): source is string => source !== null);
  const targets = ["'self'", ...new Set(sources)].join(' ');
  const scripts = script ? `script-src '${sha256Source(script)}'; connect-src 'self'; ` : '';
  return `default-src 'none'; ${scripts}style-src '${STYLE_HASH}'; img-src 'self' data:; form-action ${targets}; frame-ancestors 'none'; base-uri 'none'`;
}

function sha256Source(text: string): string {
  return `sha256-${createHash('sha256').update(text).digest('base64')}`;
}

/** Private-use URI schemes are reverse domain names (RFC 8252 §7.1). */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+:$/;

/**
 * The CSP form-action source for a form target given as an origin or a URL: an http(s) URL's
 * origin, or for a native app's private-use scheme (`com.example.app:/callback`) the scheme
 * itself (`com.example.app:`): such URLs have an opaque origin ("null"), which CSP cannot name,
 * and Chromium applies form-action to the redirect after the form is sent. Anything else
 * (including a bare "null") allows nothing.
 */
export function formActionSource(target: string): string | null {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return null;
  }
  if (url.protocol === 'https:' || url.protocol === 'http:') return url.origin;
  return PRIVATE_USE_SCHEME.test(url.protocol) ? url.protocol : null;
}
