import { pageRelyingParty } from './page-relying-party';

describe('pageRelyingParty', () => {
  const whitelist = ['https://app.example.com', 'https://*.shop.example.com', 'http://localhost:4000', 'http://127.0.0.1:4000'];

  it('takes a whitelisted origin, with its host as RP ID', () => {
    expect(pageRelyingParty('https://app.example.com', whitelist)).toEqual({ id: 'app.example.com', origin: 'https://app.example.com' });
    expect(pageRelyingParty('https://eu.shop.example.com', whitelist)).toEqual({
      id: 'eu.shop.example.com',
      origin: 'https://eu.shop.example.com',
    });
    expect(pageRelyingParty('http://localhost:4000', whitelist)).toEqual({ id: 'localhost', origin: 'http://localhost:4000' });
  });

  it.each([
    ['not whitelisted', 'https://evil.example.net'],
    ['another port', 'https://app.example.com:8443'],
    ['a path', 'https://app.example.com/login'],
    ['a trailing slash', 'https://app.example.com/'],
    ['upper case (not as a browser reports it)', 'https://APP.example.com'],
    ['http off loopback', 'http://app.example.com'],
    ['an IP address (no RP ID)', 'http://127.0.0.1:4000'],
    ['the wildcard itself', 'https://*.shop.example.com'],
    ['not a URL', 'app.example.com'],
    ['empty', ''],
    ['not a string', 42],
  ])('refuses %s', (_, origin) => {
    expect(pageRelyingParty(origin, whitelist)).toBeNull();
  });
});
