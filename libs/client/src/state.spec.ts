import { createHmac } from 'node:crypto';
import { createSignedState, verifySignedState } from './state';

const SECRET = 'client-secret-0123456789abcdefghijklmnopqrstuvwxyz';

describe('signed state', () => {
  it('is nonce.timestamp.signature with an HMAC-SHA256 of "nonce.timestamp" keyed by the client secret', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    const state = createSignedState(SECRET, now);
    const [nonce, timestamp, signature] = state.split('.');
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(timestamp).toBe(String(now / 1000));
    expect(signature).toBe(createHmac('sha256', SECRET).update(`${nonce}.${timestamp}`).digest('base64url'));
    expect(createSignedState(SECRET, now)).not.toBe(state);
  });

  it('verifies with the same secret within the age limit only', () => {
    const now = Date.now();
    const state = createSignedState(SECRET, now);
    expect(verifySignedState(SECRET, state, 600, now + 599_000)).toBe(true);
    expect(verifySignedState(SECRET, state, 600, now + 601_000)).toBe(false);
    expect(verifySignedState('other-secret', state, 600, now)).toBe(false);
    expect(verifySignedState(SECRET, state, 600, now - 120_000)).toBe(false); // from the future, beyond clock skew
  });

  it('rejects tampering', () => {
    const now = Date.now();
    const [nonce, timestamp, signature] = createSignedState(SECRET, now).split('.');
    expect(verifySignedState(SECRET, `${nonce}.${Number(timestamp) + 100}.${signature}`, 600, now)).toBe(false);
    expect(verifySignedState(SECRET, `${nonce}x.${timestamp}.${signature}`, 600, now)).toBe(false);
    expect(verifySignedState(SECRET, `${nonce}.${timestamp}`, 600, now)).toBe(false);
    expect(verifySignedState(SECRET, '', 600, now)).toBe(false);
  });
});
