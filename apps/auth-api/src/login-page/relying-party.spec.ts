import { relyingPartyOf } from './relying-party';

describe('relyingPartyOf', () => {
  it('is the host and origin of the public address', () => {
    expect(relyingPartyOf('https://id.example.com/api')).toEqual({
      id: 'id.example.com',
      origin: 'https://id.example.com',
      available: true,
    });
    expect(relyingPartyOf('http://localhost:3000/api')).toEqual({ id: 'localhost', origin: 'http://localhost:3000', available: true });
  });

  it('is unavailable on an IP address, which WebAuthn refuses as an RP ID', () => {
    expect(relyingPartyOf('http://127.0.0.1:3000/api').available).toBe(false);
    expect(relyingPartyOf('http://[::1]:3000/api').available).toBe(false);
  });
});
