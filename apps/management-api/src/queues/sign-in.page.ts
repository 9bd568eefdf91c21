/** The dashboard's sign-in form: one password field for the platform key, posted to the same address. */
export function signInPage(basePath: string, error?: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Sign in · Sesame queues</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:26rem;margin:15vh auto;padding:0 1rem}input,button{font:inherit;width:100%;padding:.6rem;margin:.4rem 0;box-sizing:border-box}.error{color:#c92a2a}</style>
</head>
<body>
<h1>Sesame queues</h1>
${error ? `<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="${basePath}/session">
<label for="key">Platform key</label>
<input type="password" id="key" name="key" autocomplete="current-password" required autofocus>
<button type="submit">Sign in</button>
</form>
<p>The browser keeps a session of one hour, never the key.</p>
</body>
</html>`;
}
