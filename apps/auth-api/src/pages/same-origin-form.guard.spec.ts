import { isSameOrigin } from './same-origin-form.guard';

describe('isSameOrigin', () => {
  const own = 'https://id.example.com';

  it.each([
    ['same-origin', undefined],
    ['same-origin', 'https://id.example.com'],
    ['none', undefined],
    [undefined, 'https://id.example.com'],
    [undefined, undefined],
  ])('Sec-Fetch-Site %j, Origin %j passes', (site, origin) => {
    expect(isSameOrigin(site, origin, own)).toBe(true);
  });

  it.each([
    ['cross-site', undefined],
    ['cross-site', 'https://id.example.com'], // Fetch Metadata wins over a spoofable-looking Origin
    ['same-site', 'https://app.example.com'],
    ['', undefined],
    [undefined, 'https://evil.example'],
    [undefined, 'null'],
    [undefined, 'https://id.example.com.evil.example'],
    [undefined, 'http://id.example.com'],
  ])('Sec-Fetch-Site %j, Origin %j is refused', (site, origin) => {
    expect(isSameOrigin(site, origin, own)).toBe(false);
  });
});
