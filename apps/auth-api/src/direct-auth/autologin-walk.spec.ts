import { autologinTargets } from './autologin-walk';

describe('autologinTargets', () => {
  const whitelist = ['http://localhost:4000', 'https://shop.example.com', 'https://*.example.org', 'https://blog.example.com'];

  it('visits every other whitelist origin on the same path when no callback URLs are registered', () => {
    expect(autologinTargets('http://localhost:4000/auth/callback?x=1', whitelist, [])).toEqual([
      'https://shop.example.com/auth/callback?x=1',
      'https://blog.example.com/auth/callback?x=1',
    ]);
  });

  it('uses the registered callback URL of each origin and skips origins without one', () => {
    const callbacks = ['http://localhost:4000/cb', 'https://shop.example.com/sesame/callback'];
    expect(autologinTargets('http://localhost:4000/cb', whitelist, callbacks)).toEqual(['https://shop.example.com/sesame/callback']);
  });

  it('has nothing to visit when the organization has a single domain', () => {
    expect(autologinTargets('http://localhost:4000/cb', ['http://localhost:4000'], [])).toEqual([]);
  });
});
