import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * @simplewebauthn/browser's UMD bundle (it defines `SimpleWebAuthnBrowser`), inlined in the pages
 * that use passkeys: the page's CSP allows its one inline script by hash, and nothing else.
 */
const BROWSER_LIBRARY = readFileSync(
  join(dirname(require.resolve('@simplewebauthn/browser')), '..', 'dist', 'bundle', 'index.umd.min.js'),
  'utf8',
).replace(/\n\/\/# sourceMappingURL=.*$/, '');

/** POSTs JSON to Sesame and reads the JSON answer; an error answer is thrown as its body. */
const POST_JSON = `function postJson(url, body) {
    return fetch(url, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) })
      .then(function (response) { return response.json().then(function (answer) { if (!response.ok) throw answer; return answer; }); });
  }`;

/**
 * The sign-in form's passkeys: the e-mail field's autofill offers saved passkeys (conditional
 * mediation), and the button asks for one. Each asks Sesame for a fresh challenge with the form's
 * request and CSRF value, and goes where Sesame's answer says (the callback with code and state).
 * A prompt the person closes is no error; a passkey Sesame refuses shows why, and the e-mail stays.
 */
const SIGN_IN_GLUE = `(function () {
  var W = window.SimpleWebAuthnBrowser;
  var form = document.getElementById('email').form;
  var button = document.getElementById('passkey-sign-in');
  var error = document.getElementById('passkey-error');
  if (!W || !W.browserSupportsWebAuthn()) return;
  document.getElementById('passkey-choice').hidden = false;
  ${POST_JSON}
  function fields() {
    var body = {};
    form.querySelectorAll('input[type=hidden]').forEach(function (input) { body[input.name] = input.value; });
    return body;
  }
  function signIn(autofill) {
    return postJson(form.dataset.passkeyOptions, fields())
      .then(function (options) { return W.startAuthentication({ optionsJSON: options, useBrowserAutofill: autofill }); })
      .then(function (credential) { var body = fields(); body.response = credential; return postJson(form.dataset.passkeyVerify, body); })
      .then(function (answer) { location.assign(answer.redirect); });
  }
  function failed(problem) {
    var name = problem && (problem.name || problem.code);
    if (name === 'NotAllowedError' || name === 'AbortError' || name === 'ERROR_CEREMONY_ABORTED') return;
    error.hidden = false;
    // The message is announced (role=alert); the way on is the e-mail, so the keyboard goes there.
    document.getElementById('email').focus();
  }
  button.addEventListener('click', function () { error.hidden = true; signIn(false).catch(failed); });
  W.browserSupportsWebAuthnAutofill().then(function (supported) { if (supported) signIn(true).catch(failed); });
})();`;

export const PASSKEY_SIGN_IN_SCRIPT = `${BROWSER_LIBRARY}\n${SIGN_IN_GLUE}`;

/**
 * The registration offer: "Create a passkey" asks Sesame for the offer's challenge, has the
 * browser create the passkey, sends it, and goes on to the callback; "Not now" remembers the skip
 * on this device (a cookie) and goes on. A failure shows the error and lets the person try again.
 */
const OFFER_GLUE = `(function () {
  var W = window.SimpleWebAuthnBrowser;
  var offer = document.getElementById('passkey-offer');
  var create = document.getElementById('passkey-create');
  var skip = document.getElementById('passkey-skip');
  var error = document.getElementById('passkey-error');
  var done = document.getElementById('passkey-done');
  var body = { client_id: offer.dataset.clientId, registration: offer.dataset.registration, csrf: offer.dataset.csrf };
  ${POST_JSON}
  create.addEventListener('click', function () {
    error.hidden = true;
    create.disabled = true;
    postJson(offer.dataset.optionsUrl, body)
      .then(function (options) { return W.startRegistration({ optionsJSON: options }); })
      .then(function (credential) { return postJson(offer.dataset.verifyUrl, { client_id: body.client_id, registration: body.registration, csrf: body.csrf, response: credential }); })
      .then(function () { done.hidden = false; location.assign(offer.dataset.continueUrl); },
            // Disabling the focused button lost the focus: it comes back to the button, to try again.
            function () { error.hidden = false; create.disabled = false; create.focus(); });
  });
  if (skip) skip.addEventListener('click', function () { document.cookie = offer.dataset.skipCookie; });
})();`;

export const PASSKEY_OFFER_SCRIPT = `${BROWSER_LIBRARY}\n${OFFER_GLUE}`;

/**
 * On the "check your inbox" page: tells Sesame (a field of the code form, a parameter of the status
 * request) that this browser can make a passkey, so that the login it completes may offer one.
 * Browsers without a platform authenticator, and clients without scripts, never see the offer.
 */
export const PASSKEY_PROBE_SCRIPT = `(function () {
  var P = window.PublicKeyCredential;
  if (!P || !P.isUserVerifyingPlatformAuthenticatorAvailable) return;
  P.isUserVerifyingPlatformAuthenticatorAvailable().then(function (available) {
    if (!available) return;
    var form = document.getElementById('code').form;
    var field = document.createElement('input');
    field.type = 'hidden';
    field.name = 'passkey_offer';
    field.value = '1';
    form.appendChild(field);
    form.dataset.statusUrl += '&passkey_offer=1';
  }, function () {});
})();`;
