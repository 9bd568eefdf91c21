import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The pages' passkey script, served at /passkeys.js (the CSP allows scripts of this origin):
 * @simplewebauthn/browser's UMD bundle (it defines `SimpleWebAuthnBrowser`), then a few lines that
 * wire the buttons. Signing in: the app's server asks Sesame for options (POST
 * /passkey/sign-in/options), the browser runs the ceremony, the server has Sesame verify the
 * answer and signs the user in (POST /passkey/sign-in/verify). Creating one, right after signing
 * in: the same two steps under /passkey/register/.
 */
const BROWSER_BUNDLE = join(dirname(require.resolve('@simplewebauthn/browser')), '..', 'dist', 'bundle', 'index.umd.min.js');

const WIRING = `(function () {
  var webauthn = window.SimpleWebAuthnBrowser;
  function post(url, body) {
    return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body || {}) })
      .then(function (response) {
        return response.json().then(function (answer) {
          if (!response.ok) throw new Error(answer.message || 'Something went wrong.');
          return answer;
        });
      });
  }
  function say(id, text, failed) {
    var element = document.getElementById(id);
    element.textContent = text;
    element.className = failed ? 'error' : 'notice';
    element.hidden = false;
  }
  function cancelled(error) { return error && error.name === 'NotAllowedError'; }
  var signIn = document.getElementById('passkey-sign-in');
  if (signIn) {
    if (!webauthn.browserSupportsWebAuthn()) signIn.hidden = true;
    signIn.addEventListener('click', function () {
      signIn.disabled = true;
      post(signIn.dataset.optionsUrl)
        .then(function (options) { return webauthn.startAuthentication({ optionsJSON: options }); })
        .then(function (response) { return post('/passkey/sign-in/verify', { response: response }); })
        .then(function (answer) { location.assign(answer.location); })
        .catch(function (error) {
          signIn.disabled = false;
          say('passkey-message', cancelled(error) ? 'No passkey was used. Try again, or use your e-mail address.' : error.message, true);
        });
    });
  }
  var create = document.getElementById('passkey-create');
  if (create) {
    if (!webauthn.browserSupportsWebAuthn()) create.hidden = true;
    create.addEventListener('click', function () {
      create.disabled = true;
      post('/passkey/register/options')
        .then(function (options) { return webauthn.startRegistration({ optionsJSON: options }); })
        .then(function (response) { return post('/passkey/register/verify', { response: response }); })
        .then(function (answer) { create.hidden = true; say('passkey-message', 'Passkey created (' + answer.name + '). Next time, sign in with it.', false); })
        .catch(function (error) {
          create.disabled = false;
          say('passkey-message', cancelled(error) ? 'No passkey was created.' : error.message, true);
        });
    });
  }
})();`;

let script: string | undefined;

/** The script, read once. */
export function passkeyScript(): string {
  script ??= `${readFileSync(BROWSER_BUNDLE, 'utf8')}\n${WIRING}`;
  return script;
}
