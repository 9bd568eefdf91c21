import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signWebhook, webhookHeaders } from './standard-webhooks';

describe('Standard Webhooks signatures', () => {
  const body = JSON.stringify({ type: 'user.created', data: { user: { id: 'u1' } } });

  it('signs as the reference library does', () => {
    const secret = newWebhookSecret();
    const timestamp = Math.floor(Date.now() / 1000);
    expect(signWebhook(secret, 'evt_1', timestamp, body)).toBe(new Webhook(secret).sign('evt_1', new Date(timestamp * 1000), body));
  });

  it('makes whsec_ secrets of 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('sends one signature per secret, and the reference library verifies with either', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const headers = webhookHeaders([current, previous], 'evt_2', Math.floor(Date.now() / 1000), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });
});
