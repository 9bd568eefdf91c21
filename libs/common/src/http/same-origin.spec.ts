import { isSameOriginRequest } from './same-origin';

describe('isSameOriginRequest', () => {
  const own = 'https://id.example.com';
  const headers = (site?: string, origin?: string) => ({
    ...(site === undefined ? {} : { 'sec-fetch-site': site }),
    ...(origin === undefined ? {} : { origin }),
  });

  it.each([
    ['same-origin', undefined],
    ['same-origin', 'https://id.example.com'],
    ['none', undefined],
    [undefined, 'https://id.example.com'],
    [undefined, undefined],
  ])('Sec-Fetch-Site %j, Origin %j passes', (site, origin) => {
    expect(isSameOriginRequest(headers(site, origin), own)).toBe(true);
  });

  it.each([
    ['cross-site', undefined],
    ['cross-site', 'https://id.example.com'], // Fetch Metadata wins
    ['same-site', 'https://app.example.com'],
    ['', undefined],
    [undefined, 'https://evil.example'],
    [undefined, 'null'],
    [undefined, 'https://id.example.com.evil.example'],
    [undefined, 'http://id.example.com'],
  ])('Sec-Fetch-Site %j, Origin %j is refused', (site, origin) => {
    expect(isSameOriginRequest(headers(site, origin), own)).toBe(false);
  });
});
